/// What `modalwatch violations` asks of the history.
public struct HistoryQuery: Sendable, Equatable {
    /// Only this app.
    public var app: String?
    /// Only this rule.
    public var rule: String?
    /// Only this session id.
    public var session: String?
    /// Only violations observed at or after this wall-clock time (ms).
    public var sinceObserved: Int64?
    /// At most this many, newest first.
    public var limit: Int

    /// Creates a query.
    public init(app: String? = nil, rule: String? = nil, session: String? = nil, sinceObserved: Int64? = nil, limit: Int = 100) {
        self.app = app
        self.session = session
        self.rule = rule
        self.sinceObserved = sinceObserved
        self.limit = limit
    }
}
