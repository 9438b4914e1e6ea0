internal import EventDecoding

/// The `--locale` of `violations` and `tail`: a BCP 47 tag (`de`, `de-DE`, Apple's `de_DE`),
/// normalized as the daemon normalizes an event's `locale`, so that it compares with the
/// `locale` violations carry.
enum LocaleOption {
    /// The refusal for a tag that is not well-formed.
    static let badTag = "--locale must be a BCP 47 language tag such as de, de-DE or zh-Hans"

    /// `text` normalized (`de_de` → `de-DE`), or nil when it is not a well-formed tag.
    static func normalized(_ text: String) -> String? { LocaleTag.normalized(text) }

    /// Whether a violation's `locale` (nil: it has none) is `wanted` or extends it (`de`: `de-DE`).
    static func matches(_ locale: String?, _ wanted: String) -> Bool {
        guard let locale else { return false }
        return locale == wanted || locale.hasPrefix(wanted + "-")
    }
}
