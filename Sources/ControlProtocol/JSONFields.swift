/// Reads the fields of one JSON object into typed values, with one-sentence errors that name
/// the field: what decoding a reply (strict) and a request (as the protocol says) share.
public struct JSONFields: Sendable {
    /// A field missing or of the wrong type.
    public struct Mismatch: Error, Sendable, CustomStringConvertible {
        /// One sentence naming the field.
        public let message: String

        /// A mismatch with this sentence.
        public init(_ message: String) {
            self.message = message
        }

        /// The sentence.
        public var description: String { message }
    }

    /// The object's fields.
    public let fields: [String: JSONValue]
    /// What the object is, for messages ("the status reply", "a session").
    public let context: String

    /// The fields of `value`, which must be an object.
    public init(_ value: JSONValue, context: String) throws(Mismatch) {
        guard case .object(let fields) = value else { throw Mismatch("\(context) is not a JSON object") }
        self.init(fields: fields, context: context)
    }

    /// These fields.
    public init(fields: [String: JSONValue], context: String) {
        self.fields = fields
        self.context = context
    }

    /// The value of `key`, absent and `null` alike nil.
    public func optional(_ key: String) -> JSONValue? {
        guard let value = fields[key], !value.isNull else { return nil }
        return value
    }

    private func required(_ key: String) throws(Mismatch) -> JSONValue {
        guard let value = optional(key) else { throw Mismatch("\(context) has no \"\(key)\"") }
        return value
    }

    private func wrong(_ key: String, _ kind: String) -> Mismatch {
        Mismatch("\"\(key)\" in \(context) must be \(kind)")
    }

    /// A string field.
    public func string(_ key: String) throws(Mismatch) -> String {
        guard let text = try required(key).stringValue else { throw wrong(key, "a string") }
        return text
    }

    /// A string field that may be absent or null.
    public func optionalString(_ key: String) throws(Mismatch) -> String? {
        guard let value = optional(key) else { return nil }
        guard let text = value.stringValue else { throw wrong(key, "a string") }
        return text
    }

    /// A whole-number field.
    public func int(_ key: String) throws(Mismatch) -> Int {
        guard let number = try required(key).wholeNumber else { throw wrong(key, "a whole number") }
        return number
    }

    /// A whole-number field that may be absent or null.
    public func optionalInt(_ key: String) throws(Mismatch) -> Int? {
        guard let value = optional(key) else { return nil }
        guard let number = value.wholeNumber else { throw wrong(key, "a whole number") }
        return number
    }

    /// A whole-number field as `Int64` (times in ms).
    public func int64(_ key: String) throws(Mismatch) -> Int64 {
        Int64(try int(key))
    }

    /// A whole-number field as `Int64` that may be absent or null.
    public func optionalInt64(_ key: String) throws(Mismatch) -> Int64? {
        try optionalInt(key).map(Int64.init)
    }

    /// A number field (a whole number is a number too).
    public func double(_ key: String) throws(Mismatch) -> Double {
        guard let number = try required(key).doubleValue else { throw wrong(key, "a number") }
        return number
    }

    /// A number field that may be absent or null.
    public func optionalDouble(_ key: String) throws(Mismatch) -> Double? {
        guard let value = optional(key), value != .null else { return nil }
        guard let number = value.doubleValue else { throw wrong(key, "a number") }
        return number
    }

    /// A boolean field.
    public func bool(_ key: String) throws(Mismatch) -> Bool {
        guard let flag = try required(key).boolValue else { throw wrong(key, "true or false") }
        return flag
    }

    /// A boolean field that may be absent or null.
    public func optionalBool(_ key: String) throws(Mismatch) -> Bool? {
        guard let value = optional(key) else { return nil }
        guard let flag = value.boolValue else { throw wrong(key, "true or false") }
        return flag
    }

    /// An array field, each element read by `element`.
    public func array<Element>(
        _ key: String,
        _ element: (JSONValue) throws(Mismatch) -> Element
    ) throws(Mismatch) -> [Element] {
        guard let values = try required(key).arrayValue else { throw wrong(key, "an array") }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values { elements.append(try element(value)) }
        return elements
    }

    /// An array of strings.
    public func strings(_ key: String) throws(Mismatch) -> [String] {
        try array(key) { value throws(Mismatch) in
            guard let text = value.stringValue else { throw wrong(key, "an array of strings") }
            return text
        }
    }

    /// An object field of whole numbers (counts by name).
    public func counts(_ key: String) throws(Mismatch) -> [String: Int] {
        guard let object = try required(key).objectValue else { throw wrong(key, "an object") }
        var counts: [String: Int] = [:]
        for (name, value) in object {
            guard let number = value.wholeNumber else { throw wrong(key, "an object of whole numbers") }
            counts[name] = number
        }
        return counts
    }

    /// The fields of an object field.
    public func object(_ key: String, context: String) throws(Mismatch) -> JSONFields {
        try JSONFields(try required(key), context: context)
    }
}
