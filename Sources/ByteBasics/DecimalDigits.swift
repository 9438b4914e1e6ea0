/// Writes whole numbers as decimal digits: the one writer behind the JSON of the client and the
/// control protocol, a rule's evidence and PostgreSQL's COPY text. (The engine's violation writer
/// keeps its own eight-digits-in-a-word form, tuned for 13-digit times on the hot path.)
public enum DecimalDigits: Sendable {
    /// The most bytes a number takes: 20 digits of a `UInt64`, or a `-` and 19 digits of an `Int64`.
    public static let maxCount = 20

    /// Calls `body` with the digits of `value`, after a `-` when it is negative (`0` for zero).
    @inlinable
    public static func withDigits<Result>(
        of value: Int64,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxCount) { buffer in
            var start = write(value.magnitude, endingAt: maxCount, into: buffer)
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            return try body(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Calls `body` with the digits of `value` (`0` for zero).
    @inlinable
    public static func withDigits<Result>(
        of value: UInt64,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxCount) { buffer in
            let start = write(value, endingAt: maxCount, into: buffer)
            return try body(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Appends the digits of `value` (after a `-` when it is negative) to `out`.
    @inlinable
    public static func append(_ value: Int64, to out: inout [UInt8]) {
        withDigits(of: value) { out.append(contentsOf: $0) }
    }

    /// Appends the digits of `value` to `out`.
    @inlinable
    public static func append(_ value: UInt64, to out: inout [UInt8]) {
        withDigits(of: value) { out.append(contentsOf: $0) }
    }

    /// Writes the digits of `value` backwards so that the last is at `end - 1`; returns where the
    /// first is.
    @inlinable
    static func write(_ value: UInt64, endingAt end: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var start = end
        var rest = value
        repeat {
            start -= 1
            buffer[start] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
        } while rest != 0
        return start
    }
}
