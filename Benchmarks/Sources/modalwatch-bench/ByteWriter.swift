/// Appends JSON text to a byte buffer: raw fragments, quoted strings that need no
/// escaping (the bench writes only its own fixed texts and ids), and integers.
struct ByteWriter {
    /// What was written.
    private(set) var bytes: [UInt8] = []

    /// A writer with room for `capacity` bytes.
    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written.
    var count: Int { bytes.count }

    /// Appends `text` as it is.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as it is.
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a byte.
    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends bytes.
    mutating func append(_ other: ArraySlice<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Appends `"text"`; `text` must need no escaping.
    mutating func string(_ text: String) {
        bytes.append(0x22)
        bytes.append(contentsOf: text.utf8)
        bytes.append(0x22)
    }

    /// Appends a decimal integer.
    mutating func integer(_ value: Int) {
        if value < 0 {
            bytes.append(0x2D)
            integer(-value)
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(0x30 + rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    /// Appends `value` in decimal, left-padded with zeros to `width` digits.
    mutating func padded(_ value: Int, width: Int) {
        let text = String(value)
        for _ in text.utf8.count..<max(width, text.utf8.count) { bytes.append(0x30) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `value` in lowercase hexadecimal, left-padded with zeros to `width` digits.
    mutating func hex(_ value: UInt32, width: Int) {
        let text = String(value, radix: 16)
        for _ in text.utf8.count..<max(width, text.utf8.count) { bytes.append(0x30) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Gives up the bytes.
    consuming func take() -> [UInt8] { bytes }
}
