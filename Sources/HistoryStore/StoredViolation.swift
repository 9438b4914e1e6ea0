/// One violation as the history keeps it: the columns it is found by, and its JSON. Two are
/// equal when every field but `seq` is: `seq` is where one store put it, and the same violation
/// has another in another store.
public struct StoredViolation: Sendable, Equatable {
    /// Its `seq` in the store it was read from (the storing order); 0 when not read from one.
    public var seq: Int64
    /// The violation's `id` (32 hex digits).
    public var id: String
    /// Its `fingerprint`.
    public var fingerprint: String
    /// Rule id.
    public var rule: String
    /// Bundle id.
    public var app: String
    /// Session id.
    public var session: String
    /// `info`, `warning` or `error`.
    public var severity: String
    /// Event time of the triggering event (ms).
    public var ts: Int64
    /// Wall-clock time it was found (ms).
    public var observed: Int64
    /// The violation object exactly as published.
    public var json: String

    /// Creates a row.
    public init(
        id: String,
        fingerprint: String,
        rule: String,
        app: String,
        session: String,
        severity: String,
        ts: Int64,
        observed: Int64,
        json: String,
        seq: Int64 = 0
    ) {
        self.seq = seq
        self.id = id
        self.fingerprint = fingerprint
        self.rule = rule
        self.app = app
        self.session = session
        self.severity = severity
        self.ts = ts
        self.observed = observed
        self.json = json
    }

    /// Whether `a` and `b` are the same violation: every field but `seq`.
    public static func == (a: StoredViolation, b: StoredViolation) -> Bool {
        a.id == b.id && a.fingerprint == b.fingerprint && a.rule == b.rule && a.app == b.app && a.session == b.session
            && a.severity == b.severity && a.ts == b.ts && a.observed == b.observed && a.json == b.json
    }
}
