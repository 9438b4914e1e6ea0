/// The `session` reply: one session, its alert timeline, its recent events, the journal they
/// come from, and its violations.
public struct SessionReply: ControlReplyBody {
    /// Where `timeline` and `events` come from.
    public struct Journal: Sendable, Equatable {
        /// Entries the journal holds.
        public var capacity: Int
        /// Events recorded since the daemon started.
        public var recorded: Int
        /// Entries held now.
        public var held: Int
        /// This session's entries held.
        public var events: Int
        /// Whether every event of this launch is still there.
        public var complete: Bool

        /// A description.
        public init(capacity: Int, recorded: Int, held: Int, events: Int, complete: Bool) {
            self.capacity = capacity
            self.recorded = recorded
            self.held = held
            self.events = events
            self.complete = complete
        }

        init(_ fields: JSONFields) throws(JSONFields.Mismatch) {
            capacity = try fields.int("capacity")
            recorded = try fields.int("recorded")
            held = try fields.int("held")
            events = try fields.int("events")
            complete = try fields.bool("complete")
        }

        var json: JSONValue {
            .object([
                "capacity": .int(capacity), "recorded": .int(recorded), "held": .int(held),
                "events": .int(events), "complete": .bool(complete),
            ])
        }
    }

    /// The session (with `live` and `stack`).
    public var session: SessionInfo
    /// The daemon's wall clock, ms.
    public var now: Int64
    /// Its `alert.presented` and `alert.dismissed` events, oldest first (at most 200).
    public var timeline: [JournalRecord]
    /// Its last events of any type, oldest first.
    public var events: [JournalRecord]
    /// Where those come from.
    public var journal: Journal
    /// Its violations from the history store, newest first, each exactly as published; nil
    /// (`null`) when the daemon keeps no history or it cannot be read.
    public var violations: [JSONValue]?
    /// Why `violations` is nil.
    public var violationsError: String?

    /// A reply.
    public init(
        session: SessionInfo,
        now: Int64,
        timeline: [JournalRecord],
        events: [JournalRecord],
        journal: Journal,
        violations: [JSONValue]?,
        violationsError: String? = nil
    ) {
        self.session = session
        self.now = now
        self.timeline = timeline
        self.events = events
        self.journal = journal
        self.violations = violations
        self.violationsError = violationsError
    }

    /// Reads a reply's fields; a missing or mistyped one is a mismatch naming it.
    public init(fields: JSONFields) throws(JSONFields.Mismatch) {
        session = try SessionInfo(try fields.object("session", context: "the session"))
        now = try fields.int64("now")
        timeline = try fields.array("timeline") { value throws(JSONFields.Mismatch) in try JournalRecord(value) }
        events = try fields.array("events") { value throws(JSONFields.Mismatch) in try JournalRecord(value) }
        journal = try Journal(try fields.object("journal", context: "the journal"))
        violations = fields.optional("violations") == nil ? nil : try fields.array("violations") { $0 }
        violationsError = try fields.optionalString("violations_error")
    }

    /// The reply's fields as they go on the wire.
    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "session": session.json, "now": .integer(now),
            "timeline": .array(timeline.map(\.json)), "events": .array(events.map(\.json)),
            "journal": journal.json, "violations": violations.map(JSONValue.array) ?? .null,
        ]
        if let violationsError { fields["violations_error"] = .string(violationsError) }
        return fields
    }
}
