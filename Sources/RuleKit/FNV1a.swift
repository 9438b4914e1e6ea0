// Re-exported: a rule module imports only RuleKit and gets the one FNV-1a, UTF-8
// decoder and JSON escaper with it.
@_exported public import ByteBasics

/// FNV-1a, 64 bit, the same hash as the header's `mw_hash`: the way to make
/// counter and window keys from names and texts. It is `ByteBasics.FNV1a64` started
/// from `FNV1a64.modalwatchOffsetBasis`, as `mw_hash` is.
public struct FNV1a: Sendable {
    /// The hash being made.
    var hasher = FNV1a64(continuing: FNV1a64.modalwatchOffsetBasis)

    /// The hash of the bytes added so far.
    public var value: UInt64 { hasher.value }

    /// Starts an empty hash.
    public init() {}

    /// Adds one byte.
    public mutating func add(_ byte: UInt8) { hasher.add(byte) }

    /// Adds bytes.
    public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) { hasher.add(bytes) }

    /// Adds a text's bytes.
    public mutating func add(_ text: Text) { hasher.add(text.bytes) }

    /// Adds a static string's bytes.
    public mutating func add(_ literal: StaticString) { hasher.add(literal) }

    /// The hash of a static string, e.g. `FNV1a.hash("alerts")` for a counter key.
    public static func hash(_ literal: StaticString) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(literal)
        return hasher.value
    }
}
