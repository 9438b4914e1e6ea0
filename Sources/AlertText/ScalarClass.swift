internal import CCharacterProperties

/// How the text analysis reads one Unicode scalar: ASCII by its value, the rest by ICU's character
/// properties (`CCharacterProperties`).
enum ScalarClass {
    /// A letter or a digit: Unicode `Alphabetic`, or any scalar with a numeric value.
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 0x30 && value <= 0x39) || (value | 0x20 >= 0x61 && value | 0x20 <= 0x7A)
        }
        return isNonASCIIAlphanumeric(scalar)
    }

    private static func isNonASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        mw_char_is_alphanumeric(scalar.value) != 0
    }

    /// Unicode `Alphabetic`.
    static func isAlphabetic(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value | 0x20 >= 0x61 && scalar.value | 0x20 <= 0x7A }
        return mw_char_is_alphabetic(scalar.value) != 0
    }

    /// Unicode `Uppercase`, or a titlecase letter (ǅ): a capital as the capitalization styles read it.
    static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 0x41 && scalar.value <= 0x5A }
        return mw_char_is_uppercase_or_titlecase(scalar.value) != 0
    }

    /// Unicode `Lowercase`.
    static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 0x61 && scalar.value <= 0x7A }
        return mw_char_is_lowercase(scalar.value) != 0
    }

    /// An ASCII letter or digit (the ASCII part of `isAlphanumeric`).
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    /// A scalar that continues a word but cannot start one: a combining mark
    /// (é written as e + U+0301), or a zero-width joiner or non-joiner inside a word.
    static func isWordContinuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return false }
        if scalar.value == 0x200C || scalar.value == 0x200D { return true }
        return isMark(scalar)
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        mw_char_is_mark(scalar.value) != 0 && !isEmojiSelector(scalar)
    }

    /// U+FE0F (emoji presentation) or U+20E3 (keycap): the scalar before it is an emoji.
    static func isEmojiSelector(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || scalar.value == 0x20E3
    }

    /// A non-ASCII scalar that can show as an emoji (such as ℹ U+2139 or 🅰 U+1F170,
    /// which Unicode also counts as alphabetic): never a letter here.
    static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && isNonASCIIEmoji(scalar)
    }

    private static func isNonASCIIEmoji(_ scalar: Unicode.Scalar) -> Bool {
        mw_char_is_emoji(scalar.value) != 0
    }

    /// An apostrophe: U+0027 ' or U+2019 ’ (the curly apostrophe of `Can’t`).
    static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x27 || scalar.value == 0x2019
    }

    /// Unicode `White_Space`.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value == 0x20 || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return isNonASCIIWhitespace(scalar)
    }

    private static func isNonASCIIWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        mw_char_is_whitespace(scalar.value) != 0
    }

    /// A closing quotation mark or bracket that may follow ending punctuation: ” ’ " ' ) ] } » › 」 』 ）.
    static func isCloser(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x22, 0x27, 0x29, 0x5D, 0x7D, 0x2019, 0x201D, 0xBB, 0x203A, 0x300D, 0x300F, 0xFF09: true
        default: false
        }
    }

    /// The ending mark a scalar makes, if it is one.
    static func endingMark(_ scalar: Unicode.Scalar) -> EndingMark? {
        switch scalar.value {
        case 0x2E, 0x3002, 0xFF0E, 0xFF61, 0x06D4, 0x0964, 0x0965, 0x1362, 0x0589, 0x104B, 0x17D4: .period
        case 0x21, 0xFF01, 0x203C, 0x2048: .exclamation
        case 0x3F, 0xFF1F, 0x203D, 0x2047, 0x2049, 0x061F, 0x037E, 0x1367: .question
        case 0x2026: .ellipsis
        case 0x3A, 0xFF1A, 0x1365: .colon
        case 0x3B, 0xFF1B, 0x061B, 0x1364: .semicolon
        case 0x2C, 0xFF0C, 0x3001, 0x060C, 0x1363: .comma
        default: nil
        }
    }

    /// A mark that ends a sentence: `.` `!` `?` `…` and their full-width forms.
    static func isSentenceTerminator(_ scalar: Unicode.Scalar) -> Bool {
        endingMark(scalar)?.endsSentence ?? false
    }
}
