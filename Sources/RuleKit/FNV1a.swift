/// FNV-1a, 64 bit, the same hash as the header's `mw_hash`: the way to make
/// counter and window keys from names and texts.
public struct FNV1a: Sendable {
    /// The hash of the bytes added so far.
    public private(set) var value: UInt64 = 1_469_598_103_934_665_603

    /// Starts an empty hash.
    public init() {}

    /// Continues a hash whose value so far is `value`.
    init(value: UInt64) { self.value = value }

    /// Adds one byte.
    public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 1_099_511_628_211
    }

    /// Adds bytes.
    public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// Adds a text's bytes.
    public mutating func add(_ text: Text) { add(text.bytes) }

    /// Adds a static string's bytes.
    public mutating func add(_ literal: StaticString) {
        literal.withUTF8Buffer { add($0) }
    }

    /// The hash of a static string, e.g. `FNV1a.hash("alerts")` for a counter key.
    public static func hash(_ literal: StaticString) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(literal)
        return hasher.value
    }
}
