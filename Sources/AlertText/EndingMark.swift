/// The punctuation a text ends with (after trailing whitespace and closing
/// quotation marks or brackets): see `TextSlice.endingMark`.
public enum EndingMark: Sendable, Hashable, CaseIterable {
    /// `.` (also `。`, the full-width `．` and half-width `｡`, the Urdu `۔`, the Devanagari `।` and `॥`,
    /// the Ethiopic `።`, the Armenian `։`, the Myanmar `။`, the Khmer `។`); not when three or more
    /// periods make an ellipsis.
    case period
    /// `!` (also `！`, `‼`, `⁈`).
    case exclamation
    /// `?` (also `？`, `‽`, `⁇`, `⁉`, the Arabic `؟`, the Greek `;`, the Ethiopic `፧`).
    case question
    /// `…`, or three or more periods (`...`).
    case ellipsis
    /// `:` (also `：`, the Ethiopic `፥`).
    case colon
    /// `;` (also `；`, the Arabic `؛`, the Ethiopic `፤`).
    case semicolon
    /// `,` (also `，`, `、`, the Arabic `،`, the Ethiopic `፣`).
    case comma

    /// True for the marks that end a sentence: period, exclamation, question and ellipsis.
    public var endsSentence: Bool {
        switch self {
        case .period, .exclamation, .question, .ellipsis: true
        case .colon, .semicolon, .comma: false
        }
    }

    /// The ASCII spelling, for messages and evidence (`...` is written `…`).
    public var symbol: String {
        switch self {
        case .period: "."
        case .exclamation: "!"
        case .question: "?"
        case .ellipsis: "…"
        case .colon: ":"
        case .semicolon: ";"
        case .comma: ","
        }
    }
}
