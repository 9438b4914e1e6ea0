/// Copies of a few bytes as overlapping word loads and stores, inline: the fixed fragments of a
/// violation's JSON and the parts of a rule's message are mostly that short, and a `memcpy` call
/// costs more than such a copy. The one short copy of the Swift writers (`JSONBuffer`, RuleKit's
/// `SmallBytes`).
public enum ShortCopy: Sendable {
    /// Copies `n` bytes from `source` to `target` (which must not overlap): up to 32 as a few
    /// overlapping word moves, longer ones by `memcpy`. Reads only `source[0..<n]`.
    @inlinable @inline(__always)
    public static func copy(to target: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count n: Int) {
        if n >= 8 {
            guard n <= 32 else { return target.copyMemory(from: source, byteCount: n) }
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            if n > 16 {
                let second = source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                let third = source.loadUnaligned(fromByteOffset: n &- 16, as: UInt64.self)
                target.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
                target.storeBytes(of: third, toByteOffset: n &- 16, as: UInt64.self)
            }
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        } else if n > 0 {
            // 1 to 3 bytes: the first, the middle and the last (some the same).
            let first = source.load(as: UInt8.self)
            let middle = source.load(fromByteOffset: n &>> 1, as: UInt8.self)
            let last = source.load(fromByteOffset: n &- 1, as: UInt8.self)
            target.storeBytes(of: first, as: UInt8.self)
            target.storeBytes(of: middle, toByteOffset: n &>> 1, as: UInt8.self)
            target.storeBytes(of: last, toByteOffset: n &- 1, as: UInt8.self)
        }
    }
}
