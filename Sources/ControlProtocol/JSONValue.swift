/// One JSON value, as the control protocol carries it: what requests and replies are
/// made of on the wire, parsed by ``JSONParser`` and written by ``JSONWriter``.
///
/// Numbers keep their kind: a whole number without a fraction or exponent is an
/// ``integer(_:)`` (or ``unsigned(_:)`` above `Int64.max`), anything else a ``number(_:)``,
/// so that `1`, `1.0` and `true` stay apart (the protocol takes only the first where
/// a whole number is expected).
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number in `Int64`'s range.
    case integer(Int64)
    /// A whole number above `Int64.max` (up to `UInt64.max`).
    case unsigned(UInt64)
    /// A number with a fraction or an exponent, or a whole number beyond `UInt64`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object (keys are written sorted; a key given twice keeps its last value).
    case object([String: JSONValue])
    /// JSON text written elsewhere and put in as it is (a violation exactly as published).
    /// Only written, never produced by the parser.
    case raw(RawJSON)

    /// A whole number as `Int`; nil for booleans, fractions (`1.0` too) and anything
    /// else. Whole numbers above `Int.max` come back as `Int.max` (larger than any limit).
    public var wholeNumber: Int? {
        switch self {
        case .integer(let value): Int(exactly: value) ?? (value < 0 ? Int.min : Int.max)
        case .unsigned: Int.max
        default: nil
        }
    }

    /// Any number as a `Double`; nil for everything else.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The string, or nil.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The boolean, or nil.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The array, or nil.
    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// The object, or nil.
    public var objectValue: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value of `key` in an object; nil when this is not an object or has no such key.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// A string, or `null` for nil.
    public static func nullable(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// A whole number, or `null` for nil.
    public static func nullable(_ number: Int64?) -> JSONValue {
        number.map(JSONValue.integer) ?? .null
    }

    /// A whole number.
    public static func int(_ number: Int) -> JSONValue {
        .integer(Int64(number))
    }

    /// A whole number (counters are unsigned in the daemon).
    public static func count(_ number: UInt64) -> JSONValue {
        number <= UInt64(Int64.max) ? .integer(Int64(number)) : .unsigned(number)
    }

    /// The value as compact JSON text, keys sorted (for messages).
    public var text: String {
        String(decoding: JSONWriter.encode(self), as: UTF8.self)
    }
}

/// JSON text put into a reply unchanged.
public struct RawJSON: Sendable, Equatable {
    /// One JSON value's bytes.
    public let bytes: [UInt8]

    /// JSON text as it is (the caller vouches that it is one JSON value).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
