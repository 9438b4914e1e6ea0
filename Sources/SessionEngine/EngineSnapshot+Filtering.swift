/// Keeping part of a snapshot: a sharded daemon restarted with another shard count
/// keeps only the sessions (and apps) of buckets it still owns (scale.md).
extension EngineSnapshot {
    /// The snapshot with only the sessions `keepSession(app, sessionID)` accepts and the
    /// apps `keepApp(app)` accepts, and how many sessions were left out.
    public func filtered(
        keepSession: (_ app: String, _ session: [UInt8]) -> Bool,
        keepApp: (_ app: String) -> Bool
    ) -> (snapshot: EngineSnapshot, droppedSessions: Int) {
        var copy = self
        copy.sessions = sessions.filter { keepSession($0.app, $0.id) }
        copy.apps = apps.filter { keepApp($0.name) }
        return (copy, sessions.count - copy.sessions.count)
    }
}
