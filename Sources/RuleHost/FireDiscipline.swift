import ModalwatchABI

/// How often a rule may fire (violations.md, "When a rule fires"); the host enforces it.
public enum FireDiscipline: String, Sendable, CaseIterable {
    /// Once per session and presentation id.
    case oncePerSubject = "once_per_subject"
    /// Then quiet in the session for the reported `quiet_ms`.
    case oncePerWindow = "once_per_window"
    /// Once per session.
    case oncePerSession = "once_per_session"
    /// Once per session and reported key.
    case oncePerKey = "once_per_key"
    /// Once per app and reported key (consistency across sessions).
    case oncePerAppValue = "once_per_app_value"
    /// Every time the rule reports.
    case everyTime = "every_time"

    /// The discipline an `mw_fire` value names, or nil for an unknown value.
    public init?(abiValue: UInt32) {
        switch abiValue {
        case UInt32(MW_FIRE_ONCE_PER_SUBJECT.rawValue): self = .oncePerSubject
        case UInt32(MW_FIRE_ONCE_PER_WINDOW.rawValue): self = .oncePerWindow
        case UInt32(MW_FIRE_ONCE_PER_SESSION.rawValue): self = .oncePerSession
        case UInt32(MW_FIRE_ONCE_PER_KEY.rawValue): self = .oncePerKey
        case UInt32(MW_FIRE_ONCE_PER_APP_VALUE.rawValue): self = .oncePerAppValue
        case UInt32(MW_FIRE_EVERY_TIME.rawValue): self = .everyTime
        default: return nil
        }
    }
}
