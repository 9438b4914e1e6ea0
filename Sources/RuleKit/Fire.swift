/// How often a rule may fire (`mw_fire`); the host enforces it, a rule simply
/// reports every time its condition holds.
public enum Fire: UInt32, Sendable, CaseIterable {
    /// At most once per session and presentation id (`RuleCall.report`'s `subject`).
    case oncePerSubject = 0
    /// Then quiet in the session for the report's `quietMs`.
    case oncePerWindow = 1
    /// At most once per session.
    case oncePerSession = 2
    /// At most once per session and the report's `key`.
    case oncePerKey = 3
    /// At most once per app and the report's `key` (consistency across sessions).
    case oncePerAppValue = 4
    /// Every report is published.
    case everyTime = 5
}
