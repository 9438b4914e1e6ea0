/// How a presentation went away (`via`).
public enum DismissVia: String, Sendable, CaseIterable {
    /// One of its buttons.
    case button
    /// The app left the foreground while it was up.
    case background
    /// The app's code, with no action of the person.
    case programmatic
    /// A swipe or other gesture (modal views).
    case gesture
}
