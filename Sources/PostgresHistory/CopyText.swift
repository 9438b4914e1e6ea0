import ByteBasics

/// Rows in the text format of `COPY … FROM STDIN`: fields separated by a tab, rows ended by a
/// newline; a backslash, tab, newline or carriage return inside a field escaped with a backslash.
/// A NUL byte, which PostgreSQL's text cannot hold, becomes U+FFFD (a published violation's JSON
/// never holds one: it escapes control characters; an app or session id decoded from `\u0000` may).
enum CopyText {
    /// Appends `text` as one field.
    static func appendField(_ text: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "\\"))
            case 0x09:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "t"))
            case 0x0A:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "n"))
            case 0x0D:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "r"))
            case 0x00:
                out.append(0xEF)
                out.append(0xBF)
                out.append(0xBD)
            default: out.append(byte)
            }
        }
    }

    /// Appends a decimal integer as one field.
    static func appendField(_ value: Int64, to out: inout [UInt8]) {
        DecimalDigits.append(value, to: &out)
    }

    /// Ends a field (a tab) or a row (a newline).
    static func endField(_ out: inout [UInt8]) { out.append(0x09) }
    static func endRow(_ out: inout [UInt8]) { out.append(0x0A) }
}
