import ByteBasics

/// The event types of wire format v1 (`mw_event_type`).
public enum EventType: UInt32, Sendable, CaseIterable {
    /// `WireEventType.sessionStart`
    case sessionStart = 1
    /// `WireEventType.sessionEnd`
    case sessionEnd = 2
    /// `WireEventType.appBackground`
    case appBackground = 3
    /// `WireEventType.appForeground`
    case appForeground = 4
    /// `WireEventType.userAction`
    case userAction = 5
    /// `WireEventType.taskProgress`
    case taskProgress = 6
    /// `WireEventType.alertPresented`
    case alertPresented = 7
    /// `WireEventType.alertDismissed`
    case alertDismissed = 8
    /// `WireEventType.sheetPresented`
    case sheetPresented = 9
    /// `WireEventType.sheetDismissed`
    case sheetDismissed = 10
    /// `WireEventType.modalPresented`
    case modalPresented = 11
    /// `WireEventType.modalDismissed`
    case modalDismissed = 12
    /// `WireEventType.popoverPresented`
    case popoverPresented = 13
    /// `WireEventType.popoverDismissed`
    case popoverDismissed = 14
    /// `WireEventType.navPush`
    case navPush = 15
    /// `WireEventType.navPop`
    case navPop = 16

    /// The `type` string on the wire, as a static string (its bytes live forever; the one list
    /// of names is ByteBasics' `WireEventType`, numbered the same).
    public var wireName: StaticString { WireEventType(rawValue: rawValue).unsafelyUnwrapped.name }

    /// The bit of this type in `mw_rule.event_mask` (`MW_EVENT_BIT`).
    public var bit: UInt32 { 1 << rawValue }
}
