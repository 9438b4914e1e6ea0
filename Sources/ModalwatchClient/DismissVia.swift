/// How a presentation went away (`via`).
public enum DismissVia: String, Sendable, CaseIterable {
    case button, background, programmatic, gesture
}
