/// `task.progress`'s `state`.
public enum TaskState: String, Sendable, CaseIterable {
    case started, progress, finished, failed, cancelled
}
