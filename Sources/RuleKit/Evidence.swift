import ByteBasics

/// Builds a violation's `evidence`: one JSON object text, with keys in the order
/// added and strings escaped. Up to 248 bytes it is kept inline and allocates
/// nothing; a larger object moves to the heap. Pass it to `RuleCall.report` as the
/// expression that builds it, which runs only when the host would publish the report.
///
/// ```swift
/// var evidence = Evidence()
/// evidence.add("count", count)
/// evidence.add("window_ms", window)
/// evidence.add("title", call.event.title)   // null when absent
/// ```
public struct Evidence: Sendable {
    /// The object's UTF-8 text, closing brace included, once a key was added; empty for `{}`.
    private var object = SmallBytes()

    /// An empty object.
    public init() {}

    /// The JSON object text, e.g. `{"count":4,"limit":3}`.
    public var json: String { object.isEmpty ? "{}" : object.withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Runs `body` with the JSON object's UTF-8 bytes.
    public func withJSON<R>(_ use: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if object.isEmpty {
            let empty: StaticString = "{}"
            return try use(UnsafeBufferPointer(start: empty.utf8Start, count: empty.utf8CodeUnitCount))
        }
        return try object.withBytes(use)
    }

    /// Adds an integer.
    public mutating func add(_ key: String, _ value: some BinaryInteger) {
        beginMember(key)
        if let exact = Int64(exactly: value) {
            Evidence.appendInteger(exact, to: &object)
        } else {
            Evidence.appendUTF8(String(value), to: &object)
        }
        endMember()
    }

    /// Adds an integer (the common case, without generic dispatch).
    public mutating func add(_ key: String, _ value: Int64) {
        beginMember(key)
        Evidence.appendInteger(value, to: &object)
        endMember()
    }

    /// Adds an integer (the common case, without generic dispatch).
    public mutating func add(_ key: String, _ value: Int) {
        add(key, Int64(value))
    }

    /// Adds a boolean.
    public mutating func add(_ key: String, _ value: Bool) {
        beginMember(key)
        Evidence.appendLiteral(value ? "true" : "false", to: &object)
        endMember()
    }

    /// Adds a string, or null.
    public mutating func add(_ key: String, _ value: String?) {
        beginMember(key)
        if let value {
            Evidence.appendString(value, into: &object)
        } else {
            Evidence.appendLiteral("null", to: &object)
        }
        endMember()
    }

    /// Adds a text the host passed in, or null when it is absent.
    public mutating func add(_ key: String, _ value: Text) {
        beginMember(key)
        if value.isAbsent {
            Evidence.appendLiteral("null", to: &object)
        } else {
            Evidence.appendString(bytes: value.bytes, into: &object)
        }
        endMember()
    }

    /// Adds an array of strings.
    public mutating func add(_ key: String, _ values: [String]) {
        beginMember(key)
        object.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { object.append(0x2C) }
            Evidence.appendString(value, into: &object)
        }
        object.append(0x5D)
        endMember()
    }

    /// Adds an array of `count` texts the host passed in, the one at each index from `text`,
    /// written from their bytes: no `String` and no array is made (`texts: buttons.count) {
    /// buttons[$0].title }`). An absent text is written as an empty string.
    public mutating func add(_ key: String, texts count: Int, _ text: (Int) -> Text) {
        beginMember(key)
        object.append(0x5B)
        for index in 0..<max(count, 0) {
            if index > 0 { object.append(0x2C) }
            Evidence.appendString(bytes: text(index).bytes, into: &object)
        }
        object.append(0x5D)
        endMember()
    }

    /// Adds an array of integers.
    public mutating func add(_ key: String, _ values: [some BinaryInteger]) {
        beginMember(key)
        object.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { object.append(0x2C) }
            if let exact = Int64(exactly: value) {
                Evidence.appendInteger(exact, to: &object)
            } else {
                Evidence.appendUTF8(String(value), to: &object)
            }
        }
        object.append(0x5D)
        endMember()
    }

    /// Adds an explicit null.
    public mutating func addNull(_ key: String) {
        beginMember(key)
        Evidence.appendLiteral("null", to: &object)
        endMember()
    }

    /// Opens the object, or turns its closing brace into a comma, then writes `"key":`.
    private mutating func beginMember(_ key: String) {
        if object.isEmpty {
            object.append(0x7B)
        } else {
            object.replaceLast(with: 0x2C)
        }
        Evidence.appendString(key, into: &object)
        object.append(0x3A)
    }

    /// Closes the object again after a member.
    private mutating func endMember() {
        object.append(0x7D)
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
        appendString(value, into: &out)
    }

    /// Appends UTF-8 `bytes` as a JSON string literal: runs that need no escape are copied whole.
    public static func appendString(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        appendString(bytes: bytes, into: &out)
    }

    /// Appends `value` as a JSON string literal to any byte sink.
    static func appendString(_ value: String, into out: inout some ByteSink) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { appendString(bytes: $0, into: &out) }
        guard done == nil else { return }
        var value = value
        value.withUTF8 { appendString(bytes: $0, into: &out) }
    }

    /// Appends a string's UTF-8 as it is (no quotes, no escapes).
    @usableFromInline
    static func appendUTF8(_ value: String, to out: inout some ByteSink) {
        var value = value
        value.withUTF8 { out.appendBytes($0) }
    }

    /// Appends UTF-8 `bytes` as a JSON string literal to any byte sink, through the one
    /// escaper (`ByteBasics.JSONStringEscaper`), U+2028 and U+2029 escaped too.
    static func appendString(bytes: UnsafeBufferPointer<UInt8>, into out: inout some ByteSink) {
        // Plain printable ASCII (keys, most titles): copied between quotes, eight bytes checked at a time.
        if let base = bytes.baseAddress, StringBytes.plainPrefix(base, bytes.count) == bytes.count {
            out.appendByte(0x22)
            out.appendBytes(bytes)
            out.appendByte(0x22)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONStringEscaper.maxEscapedLength(bytes.count) + 2) {
            room in
            let base = room.baseAddress!
            base[0] = 0x22
            let written = JSONStringEscaper.writeEscaped(
                UnsafeRawBufferPointer(bytes),
                to: base + 1,
                escapingLineSeparators: true
            )
            base[written + 1] = 0x22
            out.appendBytes(UnsafeBufferPointer(start: base, count: written + 2))
        }
    }

    /// Appends a literal's bytes.
    static func appendLiteral(_ literal: StaticString, to out: inout some ByteSink) {
        out.appendBytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the decimal digits of `value` (with `-` when negative).
    static func appendInteger(_ value: Int64, to out: inout some ByteSink) {
        DecimalDigits.withDigits(of: value) { out.appendBytes($0) }
    }
}
