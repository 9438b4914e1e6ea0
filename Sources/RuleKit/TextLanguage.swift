public import AlertText

/// The language of the event's texts as a localized rule judges them (`RuleCall.language`).
public enum TextLanguage {
    /// English: the event's `locale` is English, or it has none and its texts are not mostly of a
    /// non-Latin script. Judged with the English words (`Cancel`, `Yes`, `Error`).
    case english
    /// Another language, with its standard titles.
    case titled(StandardTitles)
    /// A language the standard titles lack, or none given and the texts mostly of a non-Latin
    /// script: what needs a language's titles is not judged.
    case untitled
}
