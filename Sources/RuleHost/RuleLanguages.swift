import ModalwatchABI

/// The languages a rule judges (`mw_rule.languages`, ABI 1.5; rules.md, "Languages").
public enum RuleLanguages: UInt32, Sendable, CaseIterable {
    /// Not declared (a module built against ABI 1.4 or older): judged as before, every text.
    case undeclared = 0
    /// Structure: the verdict does not depend on the language.
    case any = 1
    /// English wording: not called for a text in another language.
    case english = 2
    /// Carried into other languages with per-language data.
    case localized = 3

    /// The module's value, or nil when it is none of `MW_LANGUAGES_*`.
    init?(abiValue: UInt32) { self.init(rawValue: abiValue) }

    /// The catalogue's name for a declared value (`any`, `en`, `localized`), nil when undeclared.
    public var declaredName: String? { self == .undeclared ? nil : name }

    /// The catalogue's name (rules.md's `languages` column): `any`, `en`, `localized`; `—` when
    /// not declared.
    public var name: String {
        switch self {
        case .undeclared: "—"
        case .any: "any"
        case .english: "en"
        case .localized: "localized"
        }
    }
}
