/// The keys (id and ts) of the violations the writer stored last, so that one handed over
/// again (a replay: the spool written back after a crash) is kept once: a direct-mapped table of
/// 2^18 slots, each the 64-bit mix of a key. A key that a newer one pushed out is forgotten (the
/// table bounds memory, not the answer); two keys mixing alike would count as one (2^-64).
struct RecentIDs {
    private static let slotCount = 1 << 18
    private var slots = [UInt64](repeating: 0, count: RecentIDs.slotCount)

    /// The mix of a key: never 0 (an empty slot).
    static func mix(idHigh: UInt64, idLow: UInt64, ts: Int64) -> UInt64 {
        var x = idHigh ^ (idLow &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(bitPattern: ts) &* 0xC2B2_AE3D_27D4_EB4F)
        x ^= x >> 31
        x = x &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 29
        return x | 1
    }

    /// Whether the key of `mix` was stored lately.
    func contains(_ mix: UInt64) -> Bool { slots[Int(truncatingIfNeeded: mix >> 20) & (Self.slotCount - 1)] == mix }

    /// Remembers a stored key.
    mutating func insert(_ mix: UInt64) { slots[Int(truncatingIfNeeded: mix >> 20) & (Self.slotCount - 1)] = mix }
}
