/// Lowercase hexadecimal digits of a 64-bit value, most significant first: how a violation's
/// `id` (two halves) and `fingerprint` are spelled, in the published JSON and in the history.
public enum HexDigits {
    /// Writes the 16 digits of `value` at `out` (16 bytes).
    @inlinable
    public static func write(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
            out[index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
        }
    }

    /// Appends the 16 digits of `value` to `out`.
    @inlinable
    public static func append(_ value: UInt64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            write(value, to: digits.baseAddress!)
            out.append(contentsOf: digits)
        }
    }
}
