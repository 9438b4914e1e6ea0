/// The event types of wire format v1 (events.md), numbered as `mw_event_type` in the C
/// header, and their `type` strings: the one list of those names that RuleKit's `EventType`
/// and the client's `ClientEvent` both spell from.
@frozen
public enum WireEventType: UInt32, Sendable, CaseIterable, WireValue {
    case sessionStart = 1
    case sessionEnd, appBackground, appForeground, userAction, taskProgress
    case alertPresented, alertDismissed, sheetPresented, sheetDismissed, modalPresented, modalDismissed
    case popoverPresented, popoverDismissed, navPush, navPop

    /// The `type` string on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
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
}
