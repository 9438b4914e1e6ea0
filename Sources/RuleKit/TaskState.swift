import ByteBasics

/// The state a `task.progress` event reports (`mw_task_state`).
public enum TaskState: Int32, Sendable, CaseIterable {
    /// `WireTaskState.started`
    case started = 0
    /// `WireTaskState.progress`
    case progress = 1
    /// `WireTaskState.finished`
    case finished = 2
    /// `WireTaskState.failed`
    case failed = 3
    /// `WireTaskState.cancelled`
    case cancelled = 4

    /// The value's name on the wire, from ByteBasics' `WireTaskState` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireTaskState(rawValue: rawValue).unsafelyUnwrapped.string }
}
