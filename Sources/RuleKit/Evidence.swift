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
    private var body = ""

    /// An empty object.
    public init() {}

    /// The JSON object text, e.g. `{"count":4,"limit":3}`.
    public var json: String { "{" + body + "}" }

    /// Adds an integer.
    public mutating func add(_ key: String, _ value: some BinaryInteger) {
        appendKey(key)
        body += String(value)
    }

    /// Adds a boolean.
    public mutating func add(_ key: String, _ value: Bool) {
        appendKey(key)
        body += value ? "true" : "false"
    }

    /// Adds a string, or null.
    public mutating func add(_ key: String, _ value: String?) {
        appendKey(key)
        if let value { Evidence.appendString(value, to: &body) } else { body += "null" }
    }

    /// Adds a text the host passed in, or null when it is absent.
    public mutating func add(_ key: String, _ value: Text) {
        add(key, value.string)
    }

    /// Adds an array of strings.
    public mutating func add(_ key: String, _ values: [String]) {
        appendKey(key)
        body += "["
        for (index, value) in values.enumerated() {
            if index > 0 { body += "," }
            Evidence.appendString(value, to: &body)
        }
        body += "]"
    }

    /// Adds an array of integers.
    public mutating func add(_ key: String, _ values: [some BinaryInteger]) {
        appendKey(key)
        body += "[" + values.map { String($0) }.joined(separator: ",") + "]"
    }

    /// Adds an explicit null.
    public mutating func addNull(_ key: String) {
        appendKey(key)
        body += "null"
    }

    private mutating func appendKey(_ key: String) {
        if !body.isEmpty { body += "," }
        Evidence.appendString(key, to: &body)
        body += ":"
    }

    /// Appends `value` as a JSON string literal (quotes, backslash and control characters escaped).
    public static func appendString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
