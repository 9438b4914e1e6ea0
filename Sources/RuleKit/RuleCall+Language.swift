public import AlertText
public import ModalwatchABI

extension RuleCall {
    /// The language of the event's texts (`mw_event.locale`, ABI 1.5): the presentation's
    /// `locale`, else its session's, normalized (`de-DE`); absent when undetermined or under a
    /// host older than 1.5.
    @inlinable
    public var locale: Text {
        guard let host = raw.pointee.host, host.pointee.abi_minor >= 5 else { return .absent }
        return Text(raw.pointee.event.pointee.locale)
    }

    /// True when the event's texts are judged as English (rules.md, "Languages"): the `locale` is
    /// English, or there is none and the texts are not mostly of a non-Latin script. Read from
    /// what the host decided once for the event (`mw_call.texts_language`, ABI 1.5), else decided here.
    @inlinable
    public var isEnglish: Bool {
        if let host = raw.pointee.host, host.pointee.abi_minor >= 5, raw.pointee.texts_language & MW_TEXTS_DECIDED != 0
        {
            return raw.pointee.texts_language & MW_TEXTS_ENGLISH != 0
        }
        return EventLanguage.isJudgedAsEnglish(locale.raw, raw.pointee.event)
    }

    /// The language of the event's texts, as a localized rule judges them (rules.md,
    /// "Languages"). Looks the language up in `StandardTitles` when it is not English.
    @inlinable
    public var language: TextLanguage {
        // English (most events) decided where the rule asks, so the rule's switch needs no copy.
        if isEnglish { return .english }
        return languageOtherThanEnglish
    }

    /// `language` when the texts are not judged as English.
    @usableFromInline
    var languageOtherThanEnglish: TextLanguage {
        let tag = locale.raw
        guard tag.ptr != nil, let titles = EventLanguage.titles(tag) else { return .untitled }
        return .titled(titles)
    }

    /// The quotation marks of the event's language (CLDR's, `QuotationMarks`): nil when its texts
    /// are judged as English, or the language has none in the table.
    public var quotationMarks: QuotationMarks? {
        if isEnglish { return nil }
        return EventLanguage.quotationMarks(locale.raw)
    }

    /// Says the rule cannot judge the event's texts in their language (it lacks the data): the
    /// host counts the skipped judgement by rule and language (ABI 1.5; nothing under an older host).
    public func skipLanguage() {
        guard let host = raw.pointee.host, host.pointee.abi_minor >= 5, let skip = host.pointee.skip_language else {
            return
        }
        skip(raw.pointee.ctx)
    }
}
