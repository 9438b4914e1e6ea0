/// The state a `task.progress` event reports (`mw_task_state`).
public enum TaskState: Int32, Sendable, CaseIterable {
    /// `started`
    case started = 0
    /// `progress`
    case progress = 1
    /// `finished`
    case finished = 2
    /// `failed`
    case failed = 3
    /// `cancelled`
    case cancelled = 4

    /// The value's name on the wire, e.g. `progress`.
    public var name: String {
        switch self {
        case .started: "started"
        case .progress: "progress"
        case .finished: "finished"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}
