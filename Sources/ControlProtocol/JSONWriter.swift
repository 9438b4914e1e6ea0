import ByteBasics
import Foundation

/// Writes a ``JSONValue`` as compact JSON bytes, byte for byte what Foundation's
/// `JSONSerialization.data(withJSONObject:options: [.sortedKeys])` writes for the same
/// tree — keys in its order, `/` written `\/`, numbers printed as it prints them — but in
/// a fraction of the time: `JSONSerialization` compares keys through ICU and writes each
/// character as a `String`. Control replies
/// are written on the daemon's ingest thread, and their bytes are the protocol
/// (docs/control-protocol.md), so they must not change.
///
/// JSON has no NaN or infinity: a non-finite number is written `null`.
public struct JSONWriter: Sendable {
    /// How to write: as JSONSerialization's options of the same names.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int

        /// An options set.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Two-space indentation, one member per line, `"key" : value`.
        public static let prettyPrinted = Options(rawValue: 1)
        /// `/` as it is, not `\/`.
        public static let withoutEscapingSlashes = Options(rawValue: 2)
    }

    private var bytes: [UInt8] = []
    private let pretty: Bool
    private let escapeSlashes: Bool
    private var depth = 0

    private init(capacity: Int, options: Options = []) {
        bytes.reserveCapacity(capacity)
        pretty = options.contains(.prettyPrinted)
        escapeSlashes = !options.contains(.withoutEscapingSlashes)
    }

    /// The value's JSON bytes, written with `options`.
    public static func encode(_ value: JSONValue, options: Options, capacity: Int = 4096) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity, options: options)
        writer.value(value)
        return writer.bytes
    }

    /// The value's JSON bytes.
    public static func encode(_ value: JSONValue, capacity: Int = 256) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        writer.value(value)
        return writer.bytes
    }

    /// An object's JSON bytes.
    public static func encode(_ object: [String: JSONValue], capacity: Int = 4096) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        writer.object(object)
        return writer.bytes
    }

    // MARK: - Values

    private mutating func value(_ value: JSONValue) {
        switch value {
        case .null: literal("null")
        case .bool(let flag): literal(flag ? "true" : "false")
        case .integer(let number): integer(number)
        case .unsigned(let number): unsigned(number)
        case .number(let number): real(number)
        case .string(let text): string(text)
        case .array(let values): array(values)
        case .object(let fields): object(fields)
        case .raw(let raw): bytes.append(contentsOf: raw.bytes)
        }
    }

    private mutating func object(_ object: [String: JSONValue]) {
        open(UInt8(ascii: "{"))
        // Sorting the keys alone moves less than sorting the pairs; each value is then looked up once.
        for (index, key) in object.keys.sorted(by: Self.precedes).enumerated() {
            separate(index)
            string(key)
            if pretty { literal(" : ") } else { bytes.append(UInt8(ascii: ":")) }
            if let field = object[key] { value(field) }
        }
        close(UInt8(ascii: "}"))
    }

    private mutating func array(_ values: [JSONValue]) {
        open(UInt8(ascii: "["))
        for (index, element) in values.enumerated() {
            separate(index)
            value(element)
        }
        close(UInt8(ascii: "]"))
    }

    /// `{` or `[`, and in pretty output a new line one level deeper.
    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        depth += 1
    }

    /// Before each member: a comma after the first, and in pretty output a new line and the indentation.
    private mutating func separate(_ index: Int) {
        if index > 0 {
            bytes.append(UInt8(ascii: ","))
            if pretty { bytes.append(UInt8(ascii: "\n")) }
        }
        if pretty { indent() }
    }

    /// `}` or `]`, and in pretty output on a line of its own (an empty container too, as JSONSerialization has it).
    private mutating func close(_ bracket: UInt8) {
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            depth -= 1
            indent()
        }
        bytes.append(bracket)
    }

    private mutating func indent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func integer(_ value: Int64) {
        DecimalDigits.append(value, to: &bytes)
    }

    private mutating func unsigned(_ value: UInt64) {
        DecimalDigits.append(value, to: &bytes)
    }

    /// As JSONSerialization: Swift's shortest round-trip form, without a trailing ".0".
    private mutating func real(_ value: Double) {
        guard value.isFinite else { return literal("null") }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A JSON string escaped as JSONSerialization escapes: `"`, `\`, `/`, and the control
    /// characters (`\b \f \n \r \t`, the others `\u00xx`); everything else as it is.
    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated()
            where byte < 0x20 || byte == 0x22 || byte == 0x5C || (byte == 0x2F && escapeSlashes) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22, 0x5C, 0x2F: bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    bytes.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)],
                    ])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    // MARK: - Key order

    /// JSONSerialization's key order: `compare` with `.numeric`, `.caseInsensitive` and
    /// `.forcedOrdering` in the system locale, i.e. ICU's collation. For the keys replies
    /// have (lowercase ASCII letters, digits, `_ - : . /`, spaces) that order is computed
    /// here from the bytes; any other key goes to Foundation.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let fast =
            a.utf8.withContiguousStorageIfAvailable { a in
                b.utf8.withContiguousStorageIfAvailable { b in collationPrecedes(a, b) } ?? nil
            } ?? nil
        if let fast { return fast }
        return a.compare(
            b,
            options: [.numeric, .caseInsensitive, .forcedOrdering],
            range: a.startIndex..<a.endIndex,
            locale: NSLocale.system
        ) == .orderedAscending
    }

    /// ICU's primary order for the simple keys: punctuation (in the order `space _ - : . /`)
    /// before numbers (a run of digits compared by value) before letters. Nil when either key
    /// has anything else, or a number with a leading zero (whose tie-breaks are ICU's own).
    static func collationPrecedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            let x = a[i]
            let y = b[j]
            if isDigit(x), isDigit(y) {
                guard let (m, nextI) = number(a, from: i), let (n, nextJ) = number(b, from: j) else { return nil }
                if m != n { return m < n }
                i = nextI
                j = nextJ
                continue
            }
            guard let wx = weight(x), let wy = weight(y) else { return nil }
            if wx != wy { return wx < wy }
            i += 1
            j += 1
        }
        if i < a.count { return validTail(a, from: i) ? false : nil }
        if j < b.count { return validTail(b, from: j) ? true : nil }
        return false
    }

    /// Whether the rest of a key is all simple characters, so that the shorter key's coming first stands.
    private static func validTail(_ s: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var k = start
        while k < s.count {
            if isDigit(s[k]) {
                guard let (_, next) = number(s, from: k) else { return false }
                k = next
            } else {
                guard weight(s[k]) != nil else { return false }
                k += 1
            }
        }
        return true
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    /// A run of digits: its value and where it ends; nil for a leading zero or more than 18 digits.
    private static func number(_ s: UnsafeBufferPointer<UInt8>, from start: Int) -> (UInt64, Int)? {
        var k = start
        var value: UInt64 = 0
        while k < s.count, isDigit(s[k]) {
            value = value * 10 + UInt64(s[k] - UInt8(ascii: "0"))
            k += 1
        }
        guard k - start <= 18, s[start] != UInt8(ascii: "0") || k - start == 1 else { return nil }
        return (value, k)
    }

    /// A character's primary weight (every digit alike: a number against a letter or a mark), or nil when it is not one of the simple ones.
    private static func weight(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: " "): 1
        case UInt8(ascii: "_"): 2
        case UInt8(ascii: "-"): 3
        case UInt8(ascii: ":"): 4
        case UInt8(ascii: "."): 5
        case UInt8(ascii: "/"): 6
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 50
        case UInt8(ascii: "a")...UInt8(ascii: "z"): 100 + Int(c)
        default: nil
        }
    }
}
