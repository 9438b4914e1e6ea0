/// An alert's or sheet's texts as a rule's suggestion would make them: each part the rule
/// derived (its evidence's `suggested_title`, `suggested_message`, `suggested_buttons`), nil
/// where it leaves the part as it was.
public struct CorrectedPresentation: Sendable, Equatable {
    /// The corrected title.
    public var title: String?
    /// The corrected message.
    public var message: String?
    /// The corrected buttons, in visual order.
    public var buttons: [String]?

    /// Creates a correction; nil when it corrects nothing.
    public init?(title: String?, message: String?, buttons: [String]?) {
        guard title != nil || message != nil || buttons != nil else { return nil }
        self.title = title
        self.message = message
        self.buttons = buttons
    }

    /// This correction with `later`'s parts applied over it.
    func merged(with later: CorrectedPresentation) -> CorrectedPresentation {
        var result = self
        if let title = later.title { result.title = title }
        if let message = later.message { result.message = message }
        if let buttons = later.buttons { result.buttons = buttons }
        return result
    }
}
