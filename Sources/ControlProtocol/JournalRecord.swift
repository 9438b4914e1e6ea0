/// One event of a session as the daemon's journal holds it: a *record* of the `session`
/// reply's `timeline` and `events` (docs/control-protocol.md, "`session`").
public struct JournalRecord: Sendable, Equatable {
    /// The event type.
    public var type: String
    /// Event time as judged, ms.
    public var ts: Int64
    /// Wall clock when it arrived, ms.
    public var observed: Int64
    /// How long ago it arrived, ms.
    public var ageMs: Int64
    /// Modal depth after the event.
    public var modalDepth: Int
    /// Stack depth after the event.
    public var stackDepth: Int
    /// Its `seq`, when it had one.
    public var seq: Int64?
    /// Presentation id, task id, or the screen of `nav.*`.
    public var id: String?
    /// A presentation's title.
    public var title: String?
    /// A `user.action`'s label.
    public var label: String?
    /// Whether `id`, `title`, `label` or `app` was cut (written only when true).
    public var truncated: Bool
    /// The button of a dismissal.
    public var button: Int?
    /// How a dismissal happened.
    public var via: String?
    /// A `task.progress` state.
    public var state: String?
    /// A `user.action`'s control.
    public var control: String?
    /// A `session.start`'s device.
    public var device: String?
    /// A `session.start`'s app.
    public var app: String?
    /// Violations the event raised, when the journal also holds the event before it (or the whole session).
    public var newViolations: Int?

    /// A record.
    public init(
        type: String,
        ts: Int64,
        observed: Int64,
        ageMs: Int64,
        modalDepth: Int,
        stackDepth: Int,
        seq: Int64? = nil,
        id: String? = nil,
        title: String? = nil,
        label: String? = nil,
        truncated: Bool = false,
        button: Int? = nil,
        via: String? = nil,
        state: String? = nil,
        control: String? = nil,
        device: String? = nil,
        app: String? = nil,
        newViolations: Int? = nil
    ) {
        self.type = type
        self.ts = ts
        self.observed = observed
        self.ageMs = ageMs
        self.modalDepth = modalDepth
        self.stackDepth = stackDepth
        self.seq = seq
        self.id = id
        self.title = title
        self.label = label
        self.truncated = truncated
        self.button = button
        self.via = via
        self.state = state
        self.control = control
        self.device = device
        self.app = app
        self.newViolations = newViolations
    }

    init(_ value: JSONValue) throws(JSONFields.Mismatch) {
        let fields = try JSONFields(value, context: "a journal record")
        type = try fields.string("type")
        ts = try fields.int64("ts")
        observed = try fields.int64("observed")
        ageMs = try fields.int64("age_ms")
        modalDepth = try fields.int("modal_depth")
        stackDepth = try fields.int("stack_depth")
        seq = try fields.optionalInt64("seq")
        id = try fields.optionalString("id")
        title = try fields.optionalString("title")
        label = try fields.optionalString("label")
        truncated = try fields.optionalBool("truncated") ?? false
        button = try fields.optionalInt("button")
        via = try fields.optionalString("via")
        state = try fields.optionalString("state")
        control = try fields.optionalString("control")
        device = try fields.optionalString("device")
        app = try fields.optionalString("app")
        newViolations = try fields.optionalInt("new_violations")
    }

    /// The record as it goes on the wire.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "type": .string(type), "ts": .integer(ts), "observed": .integer(observed), "age_ms": .integer(ageMs),
            "modal_depth": .int(modalDepth), "stack_depth": .int(stackDepth),
        ]
        if let seq { object["seq"] = .integer(seq) }
        if let id { object["id"] = .string(id) }
        if let title { object["title"] = .string(title) }
        if let label { object["label"] = .string(label) }
        if truncated { object["truncated"] = .bool(true) }
        if let button { object["button"] = .int(button) }
        if let via { object["via"] = .string(via) }
        if let state { object["state"] = .string(state) }
        if let control { object["control"] = .string(control) }
        if let device { object["device"] = .string(device) }
        if let app { object["app"] = .string(app) }
        if let newViolations { object["new_violations"] = .int(newViolations) }
        return .object(object)
    }
}
