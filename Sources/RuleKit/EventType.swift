import ByteBasics

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

    /// The `type` string on the wire, as a static string (its bytes live forever; the one list
    /// of names is ByteBasics' `WireEventType`, numbered the same).
    public var wireName: StaticString { WireEventType(rawValue: rawValue).unsafelyUnwrapped.name }

    /// The bit of this type in `mw_rule.event_mask` (`MW_EVENT_BIT`).
    public var bit: UInt32 { 1 << rawValue }
}
