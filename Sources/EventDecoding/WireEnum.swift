/// The enumerations of wire format v1. A value's index in `values` is its C enum value in
/// modalwatch_module.h (checked by the tests).
enum WireEnum: UInt8, CaseIterable {
    case eventType, device, sizeClass, control, taskState, buttonStyle, modalRole, via, modalStyle, transition

    /// The values in the header's order. For `eventType`, index + 1 is the `mw_event_type`.
    var values: [StaticString] {
        switch self {
        case .eventType: Self.eventTypes
        case .device: Self.devices
        case .sizeClass: Self.sizeClasses
        case .control: Self.controls
        case .taskState: Self.taskStates
        case .buttonStyle: Self.buttonStyles
        case .modalRole: Self.modalRoles
        case .via: Self.vias
        case .modalStyle: Self.modalStyles
        case .transition: Self.transitions
        }
    }

    /// The index of the value spelled by the `count` bytes at `bytes`, or nil (`WireEnum+Match.swift`:
    /// a jump on the length and word compares, not a walk over the values).
    @inline(__always)
    func index(of bytes: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        guard let words = ValueWords(bytes, count) else { return nil }
        return index(of: words)
    }

    private static let eventTypes: [StaticString] = [
        "session.start", "session.end", "app.background", "app.foreground", "user.action", "task.progress",
        "alert.presented", "alert.dismissed", "sheet.presented", "sheet.dismissed", "modal.presented",
        "modal.dismissed", "popover.presented", "popover.dismissed", "nav.push", "nav.pop",
    ]
    private static let devices: [StaticString] = ["phone", "pad", "mac", "tv", "vision"]
    private static let sizeClasses: [StaticString] = ["compact", "regular"]
    private static let controls: [StaticString] = [
        "button", "bar_button", "toolbar_button", "cell", "gesture", "key", "other",
    ]
    private static let taskStates: [StaticString] = ["started", "progress", "finished", "failed", "cancelled"]
    private static let buttonStyles: [StaticString] = ["default", "cancel", "destructive"]
    private static let modalRoles: [StaticString] = ["done", "cancel", "confirm", "other"]
    private static let vias: [StaticString] = ["button", "background", "programmatic", "gesture"]
    private static let modalStyles: [StaticString] = [
        "automatic", "full_screen", "page_sheet", "form_sheet", "current_context", "over_full_screen",
        "over_current_context", "custom",
    ]
    private static let transitions: [StaticString] = [
        "cover_vertical", "flip_horizontal", "cross_dissolve", "partial_curl", "custom",
    ]
}
