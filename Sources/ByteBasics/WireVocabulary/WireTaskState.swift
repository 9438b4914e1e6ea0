/// The state `task.progress` reports: its `state` (`mw_task_state`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireTaskState: Int32, Sendable, CaseIterable, WireValue {
    case started = 0
    case progress, finished, failed, cancelled

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
        switch self {
        case .started: "started"
        case .progress: "progress"
        case .finished: "finished"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}
