public import ByteBasics

/// A button of an alert or action sheet (events.md), listed in visual order.
public struct AlertButton: Sendable, Equatable {
    /// A button's `style`.
    public enum Style: Sendable, CaseIterable, WireSpelled {
        /// An ordinary button.
        case `default`
        /// The cancel button.
        case cancel
        /// A button that destroys something.
        case destructive

        /// The wire value it spells (its raw value is that value's spelling).
        public var wire: WireButtonStyle {
            switch self {
            case .default: .default
            case .cancel: .cancel
            case .destructive: .destructive
            }
        }
    }

    /// The button's title.
    public var title: String
    /// Its style, or nil to leave it out (the daemon reads `default`).
    public var style: Style?
    /// Whether the app made it the bold default; nil leaves it out.
    public var preferred: Bool?

    /// A button.
    public init(_ title: String, style: Style? = nil, preferred: Bool? = nil) {
        self.title = title
        self.style = style
        self.preferred = preferred
    }
}
