/// The range of an event time (`ts`, ms since the Unix epoch) that the daemon accepts: from the
/// epoch to the last millisecond of year 9999 (UTC). The decoder rejects a `ts` outside it
/// (`bad_field`); whatever reads a time that was stored or restored (a history, a snapshot) holds
/// it inside with `clamped(_:)`, so that differences and sums of two times never overflow.
public enum EventTime: Sendable {
    /// 1970-01-01 00:00:00.000 UTC.
    public static let minMs: Int64 = 0
    /// 9999-12-31 23:59:59.999 UTC.
    public static let maxMs: Int64 = 253_402_300_799_999

    /// `ms` held inside `minMs...maxMs`.
    @inlinable @inline(__always)
    public static func clamped(_ ms: Int64) -> Int64 {
        ms < minMs ? minMs : ms > maxMs ? maxMs : ms
    }
}
