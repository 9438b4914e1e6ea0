/// `user.action`'s `control`: what the person acted on.
public enum UserControl: String, Sendable, CaseIterable {
    /// A button in the content.
    case button
    /// A table or collection cell.
    case cell
    /// A gesture.
    case gesture
    /// A key on a keyboard.
    case key
    /// Anything else.
    case other
    /// A navigation-bar button.
    case barButton = "bar_button"
    /// A toolbar button.
    case toolbarButton = "toolbar_button"
}
