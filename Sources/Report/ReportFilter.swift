/// What a report is limited to: one app, and a window of event time.
public struct ReportFilter: Sendable, Equatable {
    /// Only this bundle id.
    public var app: String?
    /// Only event times at or after this (ms since the epoch).
    public var since: Int64?
    /// Only event times before this (ms since the epoch).
    public var until: Int64?

    /// Creates a filter; nil fields do not filter.
    public init(app: String? = nil, since: Int64? = nil, until: Int64? = nil) {
        self.app = app
        self.since = since
        self.until = until
    }

    /// Whether an event time is inside the window.
    public func contains(ts: Int64) -> Bool {
        if let since, ts < since { return false }
        if let until, ts >= until { return false }
        return true
    }

    /// Whether an app passes.
    public func contains(app: String) -> Bool {
        self.app == nil || self.app == app
    }
}
