public import ModalwatchABI

/// The session as it stands after the host applied the current event
/// (`mw_session`), valid during the call.
public struct Session {
    /// The C record.
    public let raw: UnsafePointer<mw_session>

    /// Wraps the C record.
    public init(_ raw: UnsafePointer<mw_session>) { self.raw = raw }

    /// The session id.
    public var id: Text { Text(raw.pointee.id) }
    /// The app's bundle id (`-` when the session never said).
    public var app: Text { Text(raw.pointee.app) }
    /// The device (phone unless `session.start` said otherwise).
    public var device: Device { Device(rawValue: raw.pointee.device) ?? .phone }
    /// The session's size class.
    public var sizeClass: SizeClass { SizeClass(rawValue: raw.pointee.size_class) ?? .compact }
    /// False after `app.background` until `app.foreground`.
    public var foreground: Bool { raw.pointee.foreground != 0 }
    /// Modal views on the stack, after the current event.
    public var modalDepth: Int { Int(raw.pointee.modal_depth) }
    /// The deepest the session has been.
    public var maxModalDepth: Int { Int(raw.pointee.max_modal_depth) }
    /// The presentation stack, bottom first; `last` is topmost.
    public var stack: CArrayView<mw_presentation, Presentation> {
        CArrayView(raw.pointee.stack, count: Int(raw.pointee.stack_count))
    }
    /// The topmost presentation, if any.
    public var top: Presentation? { stack.last }
    /// Event time of the session's first event.
    public var startedTs: Int64 { raw.pointee.started_ts }
    /// Latest event time, the current event's included.
    public var lastTs: Int64 { raw.pointee.last_ts }
    /// Latest event time before the current event, or nil.
    public var previousTs: Int64? { Flag.time(raw.pointee.previous_ts) }
    /// Time of the latest `user.action` before the current event, or nil.
    public var lastUserActionTs: Int64? { Flag.time(raw.pointee.last_user_action_ts) }
    /// The control of that action.
    public var lastUserActionControl: Control? { Control(rawValue: raw.pointee.last_user_action_control) }
    /// Tasks started and not yet finished, failed or cancelled.
    public var tasksRunning: Int { Int(raw.pointee.tasks_running) }
    /// Time of the latest `task.progress` `finished`, the current event's included, or nil.
    public var lastTaskFinishedTs: Int64? { Flag.time(raw.pointee.last_task_finished_ts) }
    /// Time of the latest `task.progress` `failed`, the current event's included, or nil.
    public var lastTaskFailedTs: Int64? { Flag.time(raw.pointee.last_task_failed_ts) }
    /// Events judged in this session, the current one included.
    public var events: UInt64 { raw.pointee.events }
    /// Alerts presented in this session.
    public var alertsPresented: UInt64 { raw.pointee.alerts_presented }
    /// Alerts, sheets and modals presented in this session.
    public var presentations: UInt64 { raw.pointee.presentations }
    /// For `*.dismissed`: the entry the dismissal removed, else nil.
    public var dismissed: Presentation? { raw.pointee.dismissed.map { Presentation($0.pointee) } }
}
