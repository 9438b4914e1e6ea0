/// The *session object* of `sessions` and `session` replies (docs/control-protocol.md, "The
/// session object"). A live session has every counter; one that ended, answered from the
/// journal, has only `id`, `app`, the times, `events`, `alerts` and `violations` (the others nil,
/// absent on the wire).
public struct SessionInfo: Sendable, Equatable {
    /// One presentation on the stack now (`session` only).
    public struct StackEntry: Sendable, Equatable {
        /// 0 at the bottom.
        public var depth: Int
        /// `alert`, `sheet`, `modal`, `popover`.
        public var kind: String
        /// The presentation id.
        public var id: String
        /// Event time presented, ms.
        public var ts: Int64
        /// Navigation pushes minus pops while it was topmost.
        public var navDepth: Int
        /// How long ago it was presented by the wall clock, ms.
        public var ageMs: Int64
        /// Its title, when the journal still has its presentation and it had one (`null` otherwise).
        public var title: String?
        /// Whether the title was cut (written only when true).
        public var truncated: Bool

        /// An entry.
        public init(
            depth: Int,
            kind: String,
            id: String,
            ts: Int64,
            navDepth: Int,
            ageMs: Int64,
            title: String? = nil,
            truncated: Bool = false
        ) {
            self.depth = depth
            self.kind = kind
            self.id = id
            self.ts = ts
            self.navDepth = navDepth
            self.ageMs = ageMs
            self.title = title
            self.truncated = truncated
        }

        init(_ fields: JSONFields) throws(JSONFields.Mismatch) {
            depth = try fields.int("depth")
            kind = try fields.string("kind")
            id = try fields.string("id")
            ts = try fields.int64("ts")
            navDepth = try fields.int("nav_depth")
            ageMs = try fields.int64("age_ms")
            title = try fields.optionalString("title")
            truncated = try fields.optionalBool("truncated") ?? false
        }

        var json: JSONValue {
            var object: [String: JSONValue] = [
                "depth": .int(depth), "kind": .string(kind), "id": .string(id), "ts": .integer(ts),
                "nav_depth": .int(navDepth), "age_ms": .integer(ageMs), "title": .nullable(title),
            ]
            if truncated { object["truncated"] = .bool(true) }
            return .object(object)
        }
    }

    /// The session id.
    public var id: String
    /// Its app (nil for an ended session whose `session.start` the journal no longer holds).
    public var app: String?
    /// Its device (live sessions).
    public var device: String?
    /// The edition its rules run in (live sessions).
    public var edition: String?
    /// Event time of its first event, ms.
    public var startedTs: Int64?
    /// Event time of its latest event, ms.
    public var lastTs: Int64?
    /// The daemon's wall clock when its latest event arrived, ms.
    public var lastObserved: Int64?
    /// Events judged.
    public var events: Int
    /// Alerts presented.
    public var alerts: Int
    /// Alerts, sheets and modals presented (live sessions).
    public var presentations: Int?
    /// Modal depth now (live sessions).
    public var modalDepth: Int?
    /// The deepest it has been (live sessions).
    public var maxDepth: Int?
    /// Violations found in it.
    public var violations: Int
    /// Whether the app is in the foreground (live sessions).
    public var foreground: Bool?
    /// Tasks running (live sessions).
    public var tasksRunning: Int?
    /// Presentations on the stack (live sessions).
    public var stackDepth: Int?
    /// Whether it is live (`session` replies).
    public var live: Bool?
    /// The presentation stack, bottom first (`session` replies).
    public var stack: [StackEntry]?
    /// Alerts presented within ``windowMs`` of event time before its latest event (`sessions` replies).
    public var alertsWindow: Int?
    /// True when ``alertsWindow`` is a lower bound: the daemon's journal does not hold every alert
    /// of the session's launch (it wrapped, or the session was restored from a checkpoint).
    public var alertsWindowPartial: Bool?
    /// The app's `alert-frequency` window in force, ms (`sessions` replies).
    public var windowMs: Int64?

    /// A session object; the optional parts as the reply has them.
    public init(
        id: String,
        app: String?,
        device: String? = nil,
        edition: String? = nil,
        startedTs: Int64?,
        lastTs: Int64?,
        lastObserved: Int64?,
        events: Int,
        alerts: Int,
        presentations: Int? = nil,
        modalDepth: Int? = nil,
        maxDepth: Int? = nil,
        violations: Int,
        foreground: Bool? = nil,
        tasksRunning: Int? = nil,
        stackDepth: Int? = nil
    ) {
        self.id = id
        self.app = app
        self.device = device
        self.edition = edition
        self.startedTs = startedTs
        self.lastTs = lastTs
        self.lastObserved = lastObserved
        self.events = events
        self.alerts = alerts
        self.presentations = presentations
        self.modalDepth = modalDepth
        self.maxDepth = maxDepth
        self.violations = violations
        self.foreground = foreground
        self.tasksRunning = tasksRunning
        self.stackDepth = stackDepth
    }

    init(_ fields: JSONFields) throws(JSONFields.Mismatch) {
        id = try fields.string("id")
        app = try fields.optionalString("app")
        device = try fields.optionalString("device")
        edition = try fields.optionalString("edition")
        startedTs = try fields.optionalInt64("started_ts")
        lastTs = try fields.optionalInt64("last_ts")
        lastObserved = try fields.optionalInt64("last_observed")
        events = try fields.int("events")
        alerts = try fields.int("alerts")
        presentations = try fields.optionalInt("presentations")
        modalDepth = try fields.optionalInt("modal_depth")
        maxDepth = try fields.optionalInt("max_depth")
        violations = try fields.int("violations")
        foreground = try fields.optionalBool("foreground")
        tasksRunning = try fields.optionalInt("tasks_running")
        stackDepth = try fields.optionalInt("stack_depth")
        live = try fields.optionalBool("live")
        stack =
            fields.optional("stack") == nil
            ? nil
            : try fields.array("stack") { value throws(JSONFields.Mismatch) in
                try StackEntry(JSONFields(value, context: "a stack entry"))
            }
        alertsWindow = try fields.optionalInt("alerts_window")
        alertsWindowPartial = try fields.optionalBool("alerts_window_partial")
        windowMs = try fields.optionalInt64("window_ms")
    }

    init(_ value: JSONValue) throws(JSONFields.Mismatch) {
        try self.init(JSONFields(value, context: "a session"))
    }

    /// The object as it goes on the wire.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "app": .nullable(app),
            "started_ts": .nullable(startedTs), "last_ts": .nullable(lastTs), "last_observed": .nullable(lastObserved),
            "events": .int(events), "alerts": .int(alerts), "violations": .int(violations),
        ]
        if let device { object["device"] = .string(device) }
        if let edition { object["edition"] = .string(edition) }
        if let presentations { object["presentations"] = .int(presentations) }
        if let modalDepth { object["modal_depth"] = .int(modalDepth) }
        if let maxDepth { object["max_depth"] = .int(maxDepth) }
        if let foreground { object["foreground"] = .bool(foreground) }
        if let tasksRunning { object["tasks_running"] = .int(tasksRunning) }
        if let stackDepth { object["stack_depth"] = .int(stackDepth) }
        if let live { object["live"] = .bool(live) }
        if let stack { object["stack"] = .array(stack.map(\.json)) }
        if let alertsWindow { object["alerts_window"] = .int(alertsWindow) }
        if let alertsWindowPartial { object["alerts_window_partial"] = .bool(alertsWindowPartial) }
        if let windowMs { object["window_ms"] = .integer(windowMs) }
        return .object(object)
    }
}
