import ControlProtocol

/// Sessions and violations of several daemons united and ordered as one daemon orders them.
enum FleetMerging {
    /// The sessions of every daemon in the order `sort` gives (as the engine sorts), at most `limit`.
    static func sessions(_ replies: [SessionsReply], sort: SessionsRequest.Sort, limit: Int) -> SessionsReply {
        var sessions = replies.flatMap(\.sessions)
        switch sort {
        case .recent: sessions.sort { ($0.lastObserved ?? 0, $0.lastTs ?? 0) > ($1.lastObserved ?? 0, $1.lastTs ?? 0) }
        case .alerts: sessions.sort { ($0.alertsWindow ?? 0, $0.alerts) > ($1.alertsWindow ?? 0, $1.alerts) }
        case .depth: sessions.sort { ($0.modalDepth ?? 0, $0.maxDepth ?? 0) > ($1.modalDepth ?? 0, $1.maxDepth ?? 0) }
        case .violations: sessions.sort { $0.violations > $1.violations }
        case .events: sessions.sort { $0.events > $1.events }
        }
        return SessionsReply(
            total: replies.reduce(0) { $0 + $1.total },
            now: replies.map(\.now).max() ?? 0,
            sessions: Array(sessions.prefix(max(0, limit)))
        )
    }

    /// The violations of every daemon, newest first (as the history orders them), at most `limit`.
    static func violations(_ lists: [[JSONValue]], limit: Int) -> [JSONValue] {
        let all = lists.flatMap { $0 }
        func key(_ v: JSONValue) -> (Double, String) { (v["observed"]?.doubleValue ?? 0, v["id"]?.stringValue ?? "") }
        return Array(all.sorted { key($0) > key($1) }.prefix(max(0, limit)))
    }
}
