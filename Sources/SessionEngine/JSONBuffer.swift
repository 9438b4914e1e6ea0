import EventDecoding

/// A growable byte buffer for writing JSON without Foundation: reused, so
/// writing a violation allocates nothing once it has grown.
public struct JSONBuffer {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// Forgets the contents, keeping the room.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// Appends raw bytes (already JSON).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes (already JSON).
    public mutating func raw(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }

    /// Appends a string's UTF-8 as it is, unescaped (for topics and known-safe text).
    public mutating func text(_ string: String) { bytes.append(contentsOf: string.utf8) }

    /// Appends one raw byte.
    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Appends a whole number.
    public mutating func integer(_ value: Int64) {
        if value == 0 { bytes.append(0x30); return }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(0x2D) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while magnitude > 0 {
                d[count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                bytes.append(d[count])
            }
        }
    }

    /// Appends 16 lowercase hex digits.
    public mutating func hex64(_ value: UInt64) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { d in
            var shift: UInt64 = 60
            while true {
                bytes.append(d[Int((value >> shift) & 0xF)])
                if shift == 0 { break }
                shift -= 4
            }
        }
    }

    /// Appends a JSON string with quotes, escaping what JSON requires.
    public mutating func string(_ utf8: UnsafeRawBufferPointer) {
        JSONStringEscaper.appendQuoted(utf8, to: &bytes)
    }

    /// Appends a JSON string with quotes.
    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `"key":`.
    public mutating func key(_ name: StaticString) {
        bytes.append(0x22)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// Runs `body` with the bytes written.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }
}
