/// What `modalwatch violations` asks of the history.
public struct HistoryQuery: Sendable, Equatable {
    /// Only this app.
    public var app: String?
    /// Only this rule.
    public var rule: String?
    /// Only this session id.
    public var session: String?
    /// Only violations in this language: a tag as violations carry it (`de-DE`), matching it and
    /// the tags that extend it (`de` matches `de` and `de-DE`, `zh-Hans` `zh-Hans-CN`).
    public var locale: String?
    /// Only violations observed at or after this wall-clock time (ms).
    public var sinceObserved: Int64?
    /// At most this many, newest first.
    public var limit: Int

    /// Creates a query.
    public init(
        app: String? = nil,
        rule: String? = nil,
        session: String? = nil,
        locale: String? = nil,
        sinceObserved: Int64? = nil,
        limit: Int = 100
    ) {
        self.app = app
        self.locale = locale
        self.session = session
        self.rule = rule
        self.sinceObserved = sinceObserved
        self.limit = limit
    }
}
