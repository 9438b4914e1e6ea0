/// The languages a rule judges (rules.md, "Languages"; `mw_rule.languages`, ABI 1.5).
public enum Languages: UInt32, Sendable {
    /// Not declared: the host calls the rule for every text, as a module of ABI 1.4 or older.
    case undeclared = 0
    /// Structure (buttons, styles, counts, times): the verdict does not depend on the language.
    case any = 1
    /// English wording: the host does not call the rule for a text in another language, nor
    /// for one of undetermined language mostly of a non-Latin script, and counts what it skipped.
    case english = 2
    /// The guidance carries into other languages with per-language data (`RuleCall.language`);
    /// where the rule lacks the data it calls `RuleCall.skipLanguage()`.
    case localized = 3
}
