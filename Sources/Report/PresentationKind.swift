public import CatalogueVocabulary

extension PresentationKind {
    /// The kind a rule id is about, by its prefix (`alert-…`, `sheet-…`, `modal-…`), for
    /// sources that keep no events.
    public init?(rule: String) {
        if rule.hasPrefix("alert-") { self = .alert } else if rule.hasPrefix("sheet-") { self = .sheet } else if rule.hasPrefix("modal-") { self = .modal } else { return nil }
    }
}
