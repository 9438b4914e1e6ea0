import ByteBasics

/// Writes one compact JSON object into a byte buffer: keys in the order given,
/// strings escaped as RFC 8259 requires (and nothing more).
struct JSONWriter {
    private(set) var bytes: [UInt8]
    private var needsComma = false

    init(reserving capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Ends the object and hands the bytes over.
    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    /// A string that needs no escaping (a wire name), written as it is.
    mutating func field(_ name: StaticString, plain value: StaticString) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func field(_ name: StaticString, _ value: String?, orNull: Bool) {
        guard let value else {
            if orNull {
                key(name)
                bytes += "null".utf8
            }
            return
        }
        field(name, value)
    }

    mutating func field(_ name: StaticString, _ value: Int64) {
        key(name)
        integer(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bytes += (value ? "true" : "false").utf8
    }

    /// An index that is absent when nil is not wanted: written as `null` when `orNull`.
    mutating func field(_ name: StaticString, index: Int?, orNull: Bool) {
        guard let index else {
            if orNull {
                key(name)
                bytes += "null".utf8
            }
            return
        }
        field(name, Int64(index))
    }

    /// A field whose value the caller writes with `raw`.
    mutating func field(_ name: StaticString, raw: (inout JSONWriter) -> Void) {
        key(name)
        raw(&self)
    }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func integer(_ value: Int64) {
        DecimalDigits.append(value, to: &bytes)
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                bytes += [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 15)],
                ]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
