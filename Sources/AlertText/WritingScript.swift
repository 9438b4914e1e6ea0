/// The kind of writing system a letter belongs to, as the language rules need it (rules.md,
/// "Languages"): Latin; another script with upper and lower case; a script without case that
/// separates words with spaces; a script written without spaces between words. Decided by the
/// scalar's block, without tables.
public enum WritingScript: Sendable, Hashable, CaseIterable {
    /// Latin letters, the full-width ones included.
    case latin
    /// Greek, Cyrillic, Armenian, Georgian: cased, words separated by spaces.
    case cased
    /// Arabic, Hebrew, Syriac, Thaana, the scripts of India, Sinhala, Ethiopic, Hangul, …:
    /// without case, words separated by spaces.
    case uncased
    /// Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar: written without spaces between words.
    case spaceless

    /// The script of `scalar` when it is a letter of one of the blocks above, else nil (digits,
    /// punctuation, symbols, emoji and the scripts not listed count for none).
    public static func of(_ scalar: Unicode.Scalar) -> WritingScript? {
        let v = scalar.value
        if v < 0x80 {
            let folded = v | 0x20
            return folded >= 0x61 && folded <= 0x7A ? .latin : nil
        }
        switch v {
        case 0xC0...0x24F: return v == 0xD7 || v == 0xF7 ? nil : .latin
        case 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xFF21...0xFF3A, 0xFF41...0xFF5A: return .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF, 0x400...0x52F, 0x2DE0...0x2DFF, 0xA640...0xA69F,
            0x530...0x58F, 0x10A0...0x10FF, 0x1C90...0x1CBF:
            return .cased
        case 0x590...0x8FF, 0x900...0xDFF, 0x1200...0x139F, 0x1100...0x11FF, 0x3130...0x318F,
            0xAC00...0xD7AF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF:
            return .uncased
        case 0xE00...0xEFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x31F0...0x31FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3FFFF:
            return .spaceless
        case 0x3005, 0x3006, 0x3007: return .spaceless  // 々 〆 〇
        default: return nil
        }
    }

    /// True when `scalar` is East Asian wide or full-width (Han, Kana, Hangul, the CJK
    /// punctuation and the full-width forms): it takes two columns, and the length rules count
    /// it as two characters.
    public static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF01...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
