/// A violation's `id` (violations.md) as the two 64-bit halves its 32 hex digits spell.
public struct ViolationID: Hashable, Sendable {
    /// The first 16 hex digits.
    public var high: UInt64
    /// The last 16.
    public var low: UInt64

    /// The id of these halves.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The id `hex` spells (32 hex digits), nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 32,
            let high = UInt64(String(decoding: digits[0..<16], as: UTF8.self), radix: 16),
            let low = UInt64(String(decoding: digits[16...], as: UTF8.self), radix: 16)
        else { return nil }
        self.init(high: high, low: low)
    }
}
