public import ModalwatchABI

/// A view of the event being judged (`mw_event`), valid during the call.
/// A field the event did not carry reads as an absent `Text`, nil, or 0.
public struct Event {
    /// The C record.
    public let raw: UnsafePointer<mw_event>

    /// Wraps the C record.
    public init(_ raw: UnsafePointer<mw_event>) { self.raw = raw }

    /// The event's type, or nil for a type this RuleKit does not know.
    @inlinable
    public var type: EventType? { EventType(rawValue: raw.pointee.type) }
    /// The `type` string as sent.
    @inlinable
    public var typeName: Text { Text(raw.pointee.type_name) }
    /// The session id.
    @inlinable
    public var session: Text { Text(raw.pointee.session) }
    /// The app id as sent on this event (usually absent: see `Session.app`).
    @inlinable
    public var app: Text { Text(raw.pointee.app) }
    /// The event time as judged (ms): never earlier than the session's latest.
    @inlinable
    public var ts: Int64 { raw.pointee.ts }
    /// The event time as sent (ms).
    @inlinable
    public var tsSent: Int64 { raw.pointee.ts_sent }
    /// The sequence number, or 0 when absent.
    @inlinable
    public var seq: Int64 { raw.pointee.seq }

    /// The presentation id (`*.presented`, `*.dismissed`).
    @inlinable
    public var id: Text { Text(raw.pointee.id) }
    /// The title of an alert, sheet or modal.
    @inlinable
    public var title: Text { Text(raw.pointee.title) }
    /// The message of an alert or sheet.
    @inlinable
    public var message: Text { Text(raw.pointee.message) }
    /// Alert or sheet buttons, in visual order.
    public var buttons: CArrayView<mw_button, Button> {
        CArrayView(raw.pointee.buttons, count: Int(raw.pointee.button_count))
    }
    /// True when the `buttons` field was present.
    @inlinable
    public var hasButtons: Bool { raw.pointee.has_buttons == 1 }
    /// Modal view buttons.
    public var modalButtons: CArrayView<mw_modal_button, ModalButton> {
        CArrayView(raw.pointee.modal_buttons, count: Int(raw.pointee.modal_button_count))
    }
    /// An alert's text fields.
    @inlinable
    public var textFieldCount: Int { Int(raw.pointee.text_field_count) }
    /// An alert's secure text fields.
    @inlinable
    public var secureTextFieldCount: Int { Int(raw.pointee.secure_text_field_count) }
    /// Sheet: shown in a popover.
    @inlinable
    public var inPopover: Bool? { Flag.bool(raw.pointee.in_popover) }
    /// Sheet: started from inside a popover.
    @inlinable
    public var fromPopover: Bool? { Flag.bool(raw.pointee.from_popover) }
    /// Sheet: its appearance name.
    @inlinable
    public var background: Text { Text(raw.pointee.background) }
    /// Modal: its presentation style.
    @inlinable
    public var style: ModalStyle? { ModalStyle(rawValue: raw.pointee.style) }
    /// Modal: its transition.
    @inlinable
    public var transition: Transition? { Transition(rawValue: raw.pointee.transition) }
    /// `session.start` / modal: the size class sent.
    @inlinable
    public var sizeClass: SizeClass? { SizeClass(rawValue: raw.pointee.size_class) }

    /// Dismissal: the button index, or nil for null / absent.
    @inlinable
    public var button: Int? { Flag.index(raw.pointee.button) }
    /// Dismissal: how it went away.
    @inlinable
    public var via: Via? { Via(rawValue: raw.pointee.via) }
    /// `modal.dismissed`: closing it discards content the person made.
    @inlinable
    public var unsavedChanges: Bool? { Flag.bool(raw.pointee.unsaved_changes) }
    /// `modal.dismissed`: the app asked for and got confirmation first.
    @inlinable
    public var confirmed: Bool? { Flag.bool(raw.pointee.confirmed) }

    /// `session.start`: the device sent.
    @inlinable
    public var device: Device? { Device(rawValue: raw.pointee.device) }
    /// `session.start`: the app version.
    @inlinable
    public var appVersion: Text { Text(raw.pointee.app_version) }
    /// `session.start`: the OS.
    @inlinable
    public var os: Text { Text(raw.pointee.os) }

    /// `user.action`: the kind of control.
    @inlinable
    public var control: Control? { Control(rawValue: raw.pointee.control) }
    /// `user.action`: whether the action was destructive.
    @inlinable
    public var destructive: Bool? { Flag.bool(raw.pointee.destructive) }
    /// `user.action`: the control's label.
    @inlinable
    public var label: Text { Text(raw.pointee.label) }

    /// `task.progress`: the task id.
    @inlinable
    public var task: Text { Text(raw.pointee.task) }
    /// `task.progress`: the state reported.
    @inlinable
    public var taskState: TaskState? { TaskState(rawValue: raw.pointee.task_state) }

    /// `nav.push` / `nav.pop`: the screen.
    @inlinable
    public var screen: Text { Text(raw.pointee.screen) }
}
