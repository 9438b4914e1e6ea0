/// The event types of wire format v1 (`mw_event_type`).
public enum EventType: UInt32, Sendable, CaseIterable {
    /// `session.start`
    case sessionStart = 1
    /// `session.end`
    case sessionEnd = 2
    /// `app.background`
    case appBackground = 3
    /// `app.foreground`
    case appForeground = 4
    /// `user.action`
    case userAction = 5
    /// `task.progress`
    case taskProgress = 6
    /// `alert.presented`
    case alertPresented = 7
    /// `alert.dismissed`
    case alertDismissed = 8
    /// `sheet.presented`
    case sheetPresented = 9
    /// `sheet.dismissed`
    case sheetDismissed = 10
    /// `modal.presented`
    case modalPresented = 11
    /// `modal.dismissed`
    case modalDismissed = 12
    /// `popover.presented`
    case popoverPresented = 13
    /// `popover.dismissed`
    case popoverDismissed = 14
    /// `nav.push`
    case navPush = 15
    /// `nav.pop`
    case navPop = 16

    /// The `type` string on the wire, as a static string (its bytes live forever).
    public var wireName: StaticString {
        switch self {
        case .sessionStart: "session.start"
        case .sessionEnd: "session.end"
        case .appBackground: "app.background"
        case .appForeground: "app.foreground"
        case .userAction: "user.action"
        case .taskProgress: "task.progress"
        case .alertPresented: "alert.presented"
        case .alertDismissed: "alert.dismissed"
        case .sheetPresented: "sheet.presented"
        case .sheetDismissed: "sheet.dismissed"
        case .modalPresented: "modal.presented"
        case .modalDismissed: "modal.dismissed"
        case .popoverPresented: "popover.presented"
        case .popoverDismissed: "popover.dismissed"
        case .navPush: "nav.push"
        case .navPop: "nav.pop"
        }
    }

    /// The bit of this type in `mw_rule.event_mask` (`MW_EVENT_BIT`).
    public var bit: UInt32 { 1 << rawValue }
}
