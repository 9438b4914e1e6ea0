/// The range of a per-session sequence number (`seq`) that the daemon accepts: 1 to 2^53 − 1,
/// the integers every JSON reader holds exactly. The decoder rejects a `seq` outside it
/// (`bad_field`); whatever reads a sequence number back (a snapshot, a checkpoint) holds it inside
/// with `clamped(_:)`, so that the difference of two of them, and a count of such differences
/// summed over 2^10 sessions, never overflows.
public enum EventSequence: Sendable {
    /// The first sequence number.
    public static let min: Int64 = 1
    /// 2^53 − 1.
    public static let max: Int64 = 9_007_199_254_740_991

    /// `seq` held inside `0...max` (0: no sequence number seen).
    @inlinable @inline(__always)
    public static func clamped(_ seq: Int64) -> Int64 {
        seq < 0 ? 0 : seq > max ? max : seq
    }
}
