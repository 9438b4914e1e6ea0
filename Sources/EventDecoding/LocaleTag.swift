/// The `locale` field (events.md, "Languages"): a BCP 47 language tag in RFC 5646 syntax, `_`
/// taken for `-`, checked and written out in its normalized form (`-` between subtags, the
/// language lower case, a script title case, a region upper case, everything else lower case).
/// One pass over at most `maxBytes` bytes; nothing allocated.
public enum LocaleTag: Sendable {
    /// The longest tag accepted, in bytes.
    public static let maxBytes = 35

    /// Where a subtag may stand, in the order RFC 5646 allows them.
    private enum Stage {
        /// After the language: extended languages (a 2–3 letter language only), script, region, …
        case language
        /// After an extended language: more of them (up to three), script, region, …
        case extendedLanguage
        /// After the script: region, variants, extensions, private use.
        case script
        /// After the region or a variant: variants, extensions, private use.
        case variant
        /// After an extension's singleton: at least one subtag of 2–8.
        case singleton
        /// After an extension's subtag: more of them, another extension, private use.
        case extensionSubtag
        /// After `x`: at least one subtag of 1–8.
        case privateUseStart
        /// In the private use part: subtags of 1–8 to the end.
        case privateUse
    }

    /// The normalized form of `text` (`de_de` → `de-DE`), or nil when it is not a well-formed tag.
    /// Allocates: for tags from people and the environment, not the event path.
    public static func normalized(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count <= maxBytes else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxBytes) { out -> String? in
            bytes.withUnsafeBufferPointer { input -> String? in
                guard let start = input.baseAddress, let base = out.baseAddress,
                    let count = normalize(start, input.count, into: base)
                else { return nil }
                return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
            }
        }
    }

    /// Writes the normalized form of the `count` bytes at `bytes` to `out` (room for `maxBytes`)
    /// and returns its length (always `count`), or nil when they are not a well-formed tag.
    public static func normalize(
        _ bytes: UnsafePointer<UInt8>,
        _ count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        guard count >= 2, count <= maxBytes else { return nil }
        var stage = Stage.language
        var extendedLanguages = 0
        var start = 0
        var first = true
        while start < count {
            var end = start
            var letters = 0
            var digits = 0
            while end < count, bytes[end] != 0x2D, bytes[end] != 0x5F {
                let byte = bytes[end]
                if isLetter(byte) {
                    letters += 1
                } else if byte >= 0x30, byte <= 0x39 {
                    digits += 1
                } else {
                    return nil
                }
                end += 1
            }
            let length = end - start
            guard length >= 1, length <= 8 else { return nil }
            let allLetters = digits == 0
            let firstIsDigit = bytes[start] >= 0x30 && bytes[start] <= 0x39
            var casing = Casing.lower
            if first {
                guard allLetters, length >= 2 else { return nil }
                stage = .language
                if length >= 4 {
                    stage = .extendedLanguage
                    extendedLanguages = 3
                }
            } else {
                switch stage {
                case .language, .extendedLanguage, .script, .variant:
                    if stage == .language || stage == .extendedLanguage, length == 3, allLetters, extendedLanguages < 3
                    {
                        extendedLanguages += 1
                        stage = .extendedLanguage
                    } else if stage == .language || stage == .extendedLanguage, length == 4, allLetters {
                        casing = .title
                        stage = .script
                    } else if stage != .variant, (length == 2 && allLetters) || (length == 3 && letters == 0) {
                        casing = .upper
                        stage = .variant
                    } else if (length >= 5) || (length == 4 && firstIsDigit) {
                        stage = .variant
                    } else if length == 1 {
                        stage = isX(bytes[start]) ? .privateUseStart : .singleton
                    } else {
                        return nil
                    }
                case .singleton:
                    guard length >= 2 else { return nil }
                    stage = .extensionSubtag
                case .extensionSubtag:
                    if length == 1 {
                        stage = isX(bytes[start]) ? .privateUseStart : .singleton
                    } else if length < 2 {
                        return nil
                    }
                case .privateUseStart, .privateUse:
                    stage = .privateUse
                }
            }
            if !first { out[start - 1] = 0x2D }
            for index in start..<end {
                let byte = bytes[index]
                let upper: Bool
                switch casing {
                case .lower: upper = false
                case .upper: upper = true
                case .title: upper = index == start
                }
                out[index] = isLetter(byte) ? (upper ? byte & ~0x20 : byte | 0x20) : byte
            }
            first = false
            start = end + 1
            if end == count - 1 { return nil }  // a trailing separator
        }
        guard stage != .singleton, stage != .privateUseStart else { return nil }
        return count
    }

    private enum Casing { case lower, upper, title }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool {
        let folded = byte | 0x20
        return folded >= 0x61 && folded <= 0x7A
    }

    @inline(__always)
    private static func isX(_ byte: UInt8) -> Bool { byte | 0x20 == 0x78 }
}
