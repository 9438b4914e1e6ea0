/// `task.progress`'s `state`.
public enum TaskState: String, Sendable, CaseIterable {
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
}
