/// The fields of a stored violation that a report counts (`HistoryReading.scan`).
public struct ScannedViolation: Sendable {
    /// Rule id.
    public var rule: String
    /// Bundle id.
    public var app: String
    /// Session id.
    public var session: String
    /// `info`, `warning` or `error`.
    public var severity: String
    /// Event time (ms).
    public var ts: Int64

    /// A violation's counted fields.
    public init(rule: String, app: String, session: String, severity: String, ts: Int64) {
        self.rule = rule
        self.app = app
        self.session = session
        self.severity = severity
        self.ts = ts
    }
}
