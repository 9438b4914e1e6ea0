/// Reads one JSON value (RFC 8259) from bytes: strict (no comments, no trailing commas,
/// no leading zeros, valid UTF-8, no lone surrogates), nesting at most ``maximumDepth``
/// deep, so that no input can exhaust the stack of the thread that parses it.
public struct JSONParser {
    /// Why the bytes are not one JSON value.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What was wrong.
        public let reason: String
        /// The byte offset where it went wrong.
        public let offset: Int

        /// What was wrong, and where.
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Arrays and objects nested deeper than this are refused.
    public static let maximumDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The one value `bytes` hold (whitespace around it allowed).
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try parse(buffer) }
    }

    /// The one value `bytes` hold (whitespace around it allowed).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    // MARK: - Values

    private mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw failure("expected a key string") }
            let key = try string()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            fields[key] = try value()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            guard peek(UInt8(ascii: "}")) else { throw failure("expected ',' or '}'") }
            index += 1
            depth -= 1
            return .object(fields)
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            values.append(try value())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            guard peek(UInt8(ascii: "]")) else { throw failure("expected ',' or ']'") }
            index += 1
            depth -= 1
            return .array(values)
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) deep") }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure("unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("unexpected character")
        }
        index += count
    }

    // MARK: - Numbers

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let integerStart = index
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let integerEnd = index
        var whole = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            whole = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            whole = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if whole, let magnitude = Self.magnitude(bytes, integerStart..<integerEnd) {
            if !negative {
                return magnitude <= UInt64(Int64.max) ? .integer(Int64(magnitude)) : .unsigned(magnitude)
            }
            if magnitude <= UInt64(Int64.max) { return .integer(-Int64(magnitude)) }
            if magnitude == UInt64(Int64.max) + 1 { return .integer(Int64.min) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure("a number out of range") }
        return .number(value)
    }

    /// The digits' value, or nil when it does not fit in `UInt64`.
    private static func magnitude(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
        var value: UInt64 = 0
        for index in range {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] &- UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: - Strings

    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // The common case: no escapes; the bytes are checked as UTF-8 once, at the end.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try utf8(start..<index)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            index += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw failure("a string that is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("unexpected end of input") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try unicodeEscape()
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default: throw failure("an unknown escape")
                }
            default:
                guard byte >= 0x20 else { throw failure("a control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw failure("an unterminated string")
    }

    private func utf8(_ range: Range<Int>) throws(Failure) -> String {
        guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw failure("a string that is not valid UTF-8")
        }
        return text
    }

    /// The scalar of `\uXXXX` (the `\u` read), with its low surrogate when it is a high one.
    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let first = try hex4()
        if (0xD800...0xDBFF).contains(first) {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw failure("a lone surrogate")
            }
            index += 2
            let second = try hex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw failure("a lone surrogate") }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw failure("a bad \\u escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw failure("a lone surrogate") }
        return scalar
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("unexpected end of input") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: - Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func failure(_ reason: String) -> Failure {
        Failure(reason: reason, offset: index)
    }
}

/// Not `Sendable`: it reads through a buffer pointer valid only during `parse`.
@available(*, unavailable)
extension JSONParser: Sendable {}
