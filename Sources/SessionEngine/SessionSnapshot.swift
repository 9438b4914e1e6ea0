/// A read-only copy of one session's state, for the control socket and the CLI.
public struct SessionSnapshot: Sendable, Equatable {
    /// One presentation on the stack.
    public struct Presentation: Sendable, Equatable {
        /// `alert`, `sheet`, `modal` or `popover`.
        public var kind: String
        /// The presentation id.
        public var id: String
        /// Event time it was presented.
        public var ts: Int64
        /// Navigation pushes minus pops while it was topmost.
        public var navDepth: Int
    }

    /// The session id.
    public var id: String
    /// The bundle id.
    public var app: String
    /// `phone`, `pad`, `mac`, `tv` or `vision`.
    public var device: String
    /// The edition it is judged by.
    public var edition: String
    /// Event time of its first event.
    public var startedTs: Int64
    /// Event time of its latest event.
    public var lastTs: Int64
    /// Wall-clock ms when its latest event arrived.
    public var lastObserved: Int64
    /// Events judged.
    public var events: UInt64
    /// Alerts presented.
    public var alerts: UInt64
    /// Alerts, sheets and modals presented.
    public var presentations: UInt64
    /// Modal views on the stack now.
    public var modalDepth: Int
    /// The deepest it has been.
    public var maxModalDepth: Int
    /// Violations found in it.
    public var violations: UInt64
    /// Whether the app is in the foreground.
    public var foreground: Bool
    /// Tasks running.
    public var tasksRunning: Int
    /// The presentation stack, bottom first.
    public var stack: [Presentation]
}
