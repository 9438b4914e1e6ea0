/// `user.action`'s `control`.
public enum UserControl: String, Sendable, CaseIterable {
    case button, cell, gesture, key, other
    case barButton = "bar_button"
    case toolbarButton = "toolbar_button"
}
