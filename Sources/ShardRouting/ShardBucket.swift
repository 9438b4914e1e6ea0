import ByteBasics

/// One of the 256 buckets of the shard topic `ui/<bb>/<app>/<session>` (`scale.md`):
/// FNV-1a 64 (ByteBasics' `FNV1a64`, from the published offset basis) of the shard key's
/// UTF-8 bytes, modulo 256.
public struct ShardBucket: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The bucket number, 0–255.
    public let value: UInt8

    /// The bucket numbered `value`.
    public init(_ value: UInt8) {
        self.value = value
    }

    /// The bucket of a shard key given as bytes.
    @inline(__always)
    public init(keyBytes: UnsafeRawBufferPointer) {
        value = UInt8(truncatingIfNeeded: FNV1a64.hash(keyBytes))
    }

    /// The bucket of a shard key (an app id or a session id).
    public init(key: String) {
        value = UInt8(truncatingIfNeeded: FNV1a64.hash(key))
    }

    /// Two lowercase hex digits, as in the topic (`07`, `f5`).
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[Int(value >> 4)], digits[Int(value & 15)]], as: UTF8.self)
    }

    /// The subscription prefix that routes this bucket: `ui/<bb>/`.
    public var topicPrefix: String { "ui/\(hex)/" }

    /// The bucket's hex digits.
    public var description: String { hex }

    /// Buckets order by number.
    public static func < (lhs: ShardBucket, rhs: ShardBucket) -> Bool { lhs.value < rhs.value }

    /// All 256 buckets.
    public static let all: [ShardBucket] = (0...255).map { ShardBucket(UInt8($0)) }

    /// The bucket a topic frame names (`ui/<bb>/...`), or nil when it is not a shard topic.
    public init?(topic: some Collection<UInt8>) {
        var iterator = topic.makeIterator()
        guard iterator.next() == UInt8(ascii: "u"), iterator.next() == UInt8(ascii: "i"),
            iterator.next() == UInt8(ascii: "/"),
            let high = iterator.next().flatMap(Self.nibble), let low = iterator.next().flatMap(Self.nibble),
            iterator.next() == UInt8(ascii: "/")
        else { return nil }
        value = high << 4 | low
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
