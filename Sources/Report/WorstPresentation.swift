public import CatalogueVocabulary

/// An alert, sheet or modal that breaks rules: its texts, how often it was shown, the rules it breaks.
///
/// From recorded streams it is identified by its texts (the same alert shown in many sessions is
/// one entry); from a history, which keeps no events, by session and presentation id, and its
/// texts are the violations' messages.
public struct WorstPresentation: Sendable {
    /// Alert, sheet, modal or popover (nil when unknown).
    public var kind: PresentationKind?
    /// Bundle id.
    public var app: String
    /// The title, if any.
    public var title: String?
    /// The message, if any.
    public var message: String?
    /// Button titles, visual order.
    public var buttons: [String] = []
    /// The presentation id (from a history: the violation's subject).
    public var id: String
    /// The session, from a history (nil from streams: one entry stands for every session that showed it).
    public var session: String?
    /// Times it was presented (0 when the source has no events).
    public var shown = 0
    /// Violations by rule.
    public var rules: [String: Int] = [:]
    /// The first message of each rule, up to eight.
    public var messages: [String] = []
    /// The first suggestion of each rule, up to eight.
    public var suggestions: [String] = []
    /// The texts as the suggestions would make them (the corrections of every rule, merged).
    public var corrected: CorrectedPresentation?

    /// Creates an entry.
    public init(
        kind: PresentationKind?,
        app: String,
        id: String,
        session: String? = nil,
        title: String? = nil,
        message: String? = nil,
        buttons: [String] = []
    ) {
        self.kind = kind
        self.app = app
        self.id = id
        self.session = session
        self.title = title
        self.message = message
        self.buttons = buttons
    }

    /// Counts one violation of `rule` with `message`, its suggestion and correction.
    mutating func record(
        rule: String,
        message: String?,
        suggestion: String? = nil,
        corrected: CorrectedPresentation? = nil
    ) {
        let first = rules[rule] == nil
        rules[rule, default: 0] += 1
        if first, let message, messages.count < 8 { messages.append(message) }
        if first, let suggestion, suggestions.count < 8 { suggestions.append(suggestion) }
        if first, let corrected { self.corrected = self.corrected.map { $0.merged(with: corrected) } ?? corrected }
    }
}
