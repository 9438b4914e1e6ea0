public import ByteBasics

/// `task.progress`'s `state`.
public enum TaskState: Sendable, CaseIterable, WireSpelled {
    /// The task began.
    case started
    /// The task moved on.
    case progress
    /// The task succeeded.
    case finished
    /// The task failed.
    case failed
    /// The task was cancelled.
    case cancelled

    /// The wire value it spells (its raw value is that value's spelling).
    public var wire: WireTaskState {
        switch self {
        case .started: .started
        case .progress: .progress
        case .finished: .finished
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }
}
