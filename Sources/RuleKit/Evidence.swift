/// Builds a violation's `evidence`: one JSON object text, with keys in the order
/// added and strings escaped. Build it only when reporting (it allocates).
///
/// ```swift
/// var evidence = Evidence()
/// evidence.add("count", count)
/// evidence.add("window_ms", window)
/// evidence.add("title", call.event.title)   // null when absent
/// ```
public struct Evidence: Sendable {
    private var body: [UInt8] = []

    /// An empty object.
    public init() {}

    /// The JSON object text, e.g. `{"count":4,"limit":3}`.
    public var json: String { String(decoding: [0x7B] + body + [0x7D], as: UTF8.self) }

    /// Runs `body` with the JSON object's UTF-8 bytes.
    public func withJSON<R>(_ use: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var bytes = [UInt8]()
        bytes.reserveCapacity(body.count + 2)
        bytes.append(0x7B)
        bytes += body
        bytes.append(0x7D)
        return try bytes.withUnsafeBufferPointer(use)
    }

    /// Adds an integer.
    public mutating func add(_ key: String, _ value: some BinaryInteger) {
        appendKey(key)
        body += String(value).utf8
    }

    /// Adds a boolean.
    public mutating func add(_ key: String, _ value: Bool) {
        appendKey(key)
        body += (value ? "true" : "false").utf8
    }

    /// Adds a string, or null.
    public mutating func add(_ key: String, _ value: String?) {
        appendKey(key)
        if let value { Evidence.appendString(value, to: &body) } else { body += "null".utf8 }
    }

    /// Adds a text the host passed in, or null when it is absent.
    public mutating func add(_ key: String, _ value: Text) {
        appendKey(key)
        if value.isAbsent {
            body += "null".utf8
        } else {
            Evidence.appendString(bytes: value.bytes, to: &body)
        }
    }

    /// Adds an array of strings.
    public mutating func add(_ key: String, _ values: [String]) {
        appendKey(key)
        body.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { body.append(0x2C) }
            Evidence.appendString(value, to: &body)
        }
        body.append(0x5D)
    }

    /// Adds an array of integers.
    public mutating func add(_ key: String, _ values: [some BinaryInteger]) {
        appendKey(key)
        body += ("[" + values.map { String($0) }.joined(separator: ",") + "]").utf8
    }

    /// Adds an explicit null.
    public mutating func addNull(_ key: String) {
        appendKey(key)
        body += "null".utf8
    }

    private mutating func appendKey(_ key: String) {
        if !body.isEmpty { body.append(0x2C) }
        Evidence.appendString(key, to: &body)
        body.append(0x3A)
    }

    /// Appends `value` as a JSON string literal to a String (quotes, backslash, control
    /// characters, U+2028 and U+2029 escaped).
    public static func appendString(_ value: String, to out: inout String) {
        var bytes: [UInt8] = []
        appendString(value, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` as a JSON string literal to UTF-8 bytes.
    public static func appendString(_ value: String, to out: inout [UInt8]) {
        var value = value
        value.withUTF8 { appendString(bytes: $0, to: &out) }
    }

    /// Appends UTF-8 `bytes` as a JSON string literal: runs that need no escape are copied whole.
    public static func appendString(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(0x22)
        var run = 0
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            var escape: [UInt8]? = nil
            var width = 1
            switch byte {
            case 0x22: escape = [0x5C, 0x22]
            case 0x5C: escape = [0x5C, 0x5C]
            case 0x0A: escape = [0x5C, 0x6E]
            case 0x0D: escape = [0x5C, 0x72]
            case 0x09: escape = [0x5C, 0x74]
            case 0x08: escape = [0x5C, 0x62]
            case 0x0C: escape = [0x5C, 0x66]
            case 0x00..<0x20: escape = Array("\\u00".utf8) + hex(byte)
            case 0xE2 where i + 2 < count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                escape = Array("\\u202".utf8) + [bytes[i + 2] == 0xA8 ? 0x38 : 0x39]
                width = 3
            default: break
            }
            if let escape {
                if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
                out += escape
                i += width
                run = i
            } else {
                i += 1
            }
        }
        if run < count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<count])) }
        out.append(0x22)
    }

    private static func hex(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
    }
}
