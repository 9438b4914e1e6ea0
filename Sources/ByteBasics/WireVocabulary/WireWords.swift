/// A string of at most 24 bytes as three little-endian words, zero past its end: what a `WireValue`
/// is matched on (a perfect hash of the words, then one compare) instead of byte by byte.
@frozen
public struct WireWords: Sendable {
    /// The longest string the words hold.
    public static let capacity = 24

    /// The string's length in bytes.
    public var count: Int
    /// Bytes 0..<8.
    public var w0: UInt64 = 0
    /// Bytes 8..<16.
    public var w1: UInt64 = 0
    /// Bytes 16..<24.
    public var w2: UInt64 = 0

    /// The `count` bytes at `p`, or nil when there are none or more than `capacity`. Reads only those
    /// bytes: overlapping loads of 2, 4 or 8 bytes, the last of them ending at the string's end.
    @inlinable @inline(__always)
    public init?(_ p: UnsafePointer<UInt8>, _ count: Int) {
        guard count > 0, count <= Self.capacity else { return nil }
        self.count = count
        let raw = UnsafeRawPointer(p)
        if count >= 8 {
            w0 = raw.loadUnaligned(as: UInt64.self)
            let last = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            if count <= 16 {
                if count > 8 { w1 = last &>> UInt64(truncatingIfNeeded: (16 &- count) &* 8) }
            } else {
                w1 = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                w2 = last &>> UInt64(truncatingIfNeeded: (24 &- count) &* 8)
            }
        } else if count >= 4 {
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            w0 = low | high &<< UInt64(truncatingIfNeeded: (count &- 4) &* 8)
        } else if count >= 2 {
            let low = UInt64(raw.loadUnaligned(as: UInt16.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
            w0 = low | high &<< UInt64(truncatingIfNeeded: (count &- 2) &* 8)
        } else {
            w0 = UInt64(p[0])
        }
    }

    /// The key the perfect hashes of `WireVocabulary+Match.swift` multiply: the words and the length
    /// folded into one word.
    @inlinable @inline(__always)
    public var hashKey: UInt64 { w0 &+ w1 &+ UInt64(truncatingIfNeeded: count) }
}
