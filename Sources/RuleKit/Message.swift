import ByteBasics

/// A violation's one-sentence message, written as UTF-8 straight from a string
/// literal and its interpolations, without building a `String`: literal parts are
/// copied from static storage, texts from the host's bytes, numbers as digits.
///
/// `RuleCall.report` takes one wherever a message literal uses an interpolation
/// only `Message` has (`quoted:`, `duration:`, `count:`, `ordinal:`); a plain
/// literal still builds a `String`, as before. Write `Message(...)` or
/// `... as Message` to choose it for any other literal.
///
/// ```swift
/// call.report(
///     subject: event.id,
///     message: "Modal view \(quoted: event.id) was closed after \(duration: shown); the limit is \(limit)"
/// )
/// ```
///
/// Each interpolation reads as the `Phrase` helper of the same name does.
public struct Message: ExpressibleByStringInterpolation, Sendable {
    /// The UTF-8 bytes (always valid UTF-8: texts are repaired as `String(decoding:as:)`
    /// repairs them), inline up to 248 bytes.
    private var bytes: SmallBytes

    /// A message of one literal.
    public init(stringLiteral literal: StaticString) {
        var interpolation = StringInterpolation(literalCapacity: literal.utf8CodeUnitCount, interpolationCount: 0)
        interpolation.appendLiteral(literal)
        bytes = interpolation.bytes
    }

    /// A message from a literal with interpolations.
    public init(stringInterpolation: StringInterpolation) {
        bytes = stringInterpolation.bytes
    }

    /// A message with the text of `string`.
    public init(_ string: String) {
        var interpolation = StringInterpolation(literalCapacity: 0, interpolationCount: 1)
        interpolation.appendInterpolation(string)
        bytes = interpolation.bytes
    }

    /// The message as a `String` (allocates).
    public var string: String { bytes.withBytes { String(decoding: $0, as: UTF8.self) } }

    /// Runs `body` with the message's UTF-8 bytes.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withBytes(body)
    }

    /// Builds the bytes of a `Message` literal.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        /// The bytes so far.
        @usableFromInline var bytes = SmallBytes()

        /// An empty message (kept inline up to 248 bytes: most messages allocate nothing).
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// A literal part.
        @inlinable
        public mutating func appendLiteral(_ literal: StaticString) {
            if literal.hasPointerRepresentation {
                bytes.append(
                    contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
                )
            } else {
                Evidence.appendUTF8(String(describing: literal.unicodeScalar), to: &bytes)
            }
        }

        /// A string's text.
        public mutating func appendInterpolation(_ string: String) {
            Evidence.appendUTF8(string, to: &bytes)
        }

        /// A whole number in decimal.
        public mutating func appendInterpolation(_ value: Int64) {
            Evidence.appendInteger(value, to: &bytes)
        }

        /// A whole number in decimal.
        public mutating func appendInterpolation(_ value: Int) {
            Evidence.appendInteger(Int64(value), to: &bytes)
        }

        /// A whole number in decimal.
        public mutating func appendInterpolation(_ value: some BinaryInteger) {
            if let exact = Int64(exactly: value) {
                Evidence.appendInteger(exact, to: &bytes)
            } else {
                Evidence.appendUTF8(String(value), to: &bytes)
            }
        }

        /// A text the host passed in, as it is (nothing when absent).
        public mutating func appendInterpolation(_ text: Text) {
            appendText(text.bytes)
        }

        /// `Phrase.quoted`: the text in curly quotes, e.g. `“Delete All?”`, cut after 80
        /// characters with `…`; `(none)` when absent.
        public mutating func appendInterpolation(quoted text: Text) {
            guard !text.isAbsent else {
                appendLiteral("(none)")
                return
            }
            let (count, cut) = Phrase.quotedPrefix(text.bytes)
            appendLiteral("“")
            appendText(UnsafeBufferPointer(rebasing: text.bytes[0..<count]))
            if cut { appendLiteral("…") }
            appendLiteral("”")
        }

        /// A string in curly quotes, cut after 80 characters with `…` (as `quoted:` a text).
        public mutating func appendInterpolation(quoted string: String) {
            var copy = string
            copy.withUTF8 { appendInterpolation(quoted: Text($0)) }
        }

        /// Texts in curly quotes, joined: `“Mail”, “Message”, “Cancel”`.
        public mutating func appendInterpolation(quotedList strings: [String]) {
            for (index, string) in strings.enumerated() {
                if index > 0 { appendLiteral(", ") }
                appendInterpolation(quoted: string)
            }
        }

        /// `Phrase.duration`: in the largest unit the duration is a whole number of (`10 min`,
        /// `1 s`, `250 ms`), else in tenths of a second under 100 s (`21.4 s`), else in seconds.
        public mutating func appendInterpolation(duration ms: Int64) {
            let parts = Phrase.durationParts(ms)
            appendInterpolation(parts.whole)
            if let tenth = parts.tenth {
                appendLiteral(".")
                appendInterpolation(tenth)
            }
            appendLiteral(" ")
            appendLiteral(parts.unit)
        }

        /// `Phrase.count`: `1 alert`, `4 alerts`, the noun plural unless the count is 1.
        public mutating func appendInterpolation(count: some BinaryInteger, _ singular: String, plural: String? = nil) {
            appendInterpolation(count)
            appendLiteral(" ")
            if count == 1 {
                appendInterpolation(singular)
            } else if let plural {
                appendInterpolation(plural)
            } else {
                appendInterpolation(singular)
                appendLiteral("s")
            }
        }

        /// `Phrase.ordinal`: `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
        public mutating func appendInterpolation(ordinal number: some BinaryInteger) {
            appendInterpolation(Phrase.ordinal(number))
        }

        /// Another message's text.
        public mutating func appendInterpolation(_ message: Message) {
            message.withUTF8 { bytes.append(contentsOf: $0) }
        }

        /// Appends a text's bytes: as they are when they are ASCII or valid UTF-8,
        /// else repaired (each invalid sequence read as U+FFFD).
        private mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
            if Message.isValidUTF8(text) {
                bytes.append(contentsOf: text)
            } else {
                Evidence.appendUTF8(String(decoding: text, as: UTF8.self), to: &bytes)
            }
        }
    }

    /// True when `bytes` is well-formed UTF-8 (shortest forms, no surrogates, at most U+10FFFF).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        UTF8Decoding.isValid(bytes)
    }
}
