/// Builders for event lines of wire format v1 (events.md), one JSON object per line.
///
/// `extra` is spliced in verbatim as further fields, e.g. `#""seq":3"#`.
enum Line {
    /// Any event.
    static func event(_ type: String, _ session: String, _ ts: Int64, _ extra: String = "") -> String {
        #"{"v":1,"type":"\#(type)","session":"\#(session)","ts":\#(ts)\#(extra.isEmpty ? "" : "," + extra)}"#
    }

    static func start(_ session: String, _ ts: Int64, app: String = "com.example.app", _ extra: String = "") -> String {
        event("session.start", session, ts, #""app":"\#(app)""# + (extra.isEmpty ? "" : "," + extra))
    }

    static func end(_ session: String, _ ts: Int64, _ extra: String = "") -> String {
        event("session.end", session, ts, extra)
    }

    /// `kind.presented` (`alert`, `sheet`, `modal`, `popover`) with id `id`.
    static func present(_ kind: String, _ session: String, _ ts: Int64, _ id: String, _ extra: String = "") -> String {
        event(kind + ".presented", session, ts, #""id":"\#(id)""# + (extra.isEmpty ? "" : "," + extra))
    }

    /// `kind.dismissed` with id `id`.
    static func dismiss(_ kind: String, _ session: String, _ ts: Int64, _ id: String, _ extra: String = "") -> String {
        event(kind + ".dismissed", session, ts, #""id":"\#(id)""# + (extra.isEmpty ? "" : "," + extra))
    }

    static func alert(_ session: String, _ ts: Int64, _ id: String, _ extra: String = "") -> String {
        present("alert", session, ts, id, extra)
    }

    static func action(_ session: String, _ ts: Int64, label: String? = nil, _ extra: String = "") -> String {
        var fields = #""control":"button""#
        if let label { fields += #","label":"\#(label)""# }
        if !extra.isEmpty { fields += "," + extra }
        return event("user.action", session, ts, fields)
    }

    static func task(_ session: String, _ ts: Int64, _ task: String, _ state: String) -> String {
        event("task.progress", session, ts, #""task":"\#(task)","state":"\#(state)""#)
    }
}
