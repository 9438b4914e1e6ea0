/// A checkpoint's parts made one snapshot again.
extension EngineSnapshot {
    /// The parts of one checkpoint (its slices, in the order they were taken) as one snapshot:
    /// a session captured twice (it ended and started again in another slot during the walk)
    /// counts as it was last active; the sessions least recently active first, as a snapshot
    /// keeps them; the apps' rule state from the last part, which holds it.
    public static func merged(_ parts: [EngineSnapshot]) -> EngineSnapshot {
        var sessions: [SessionState] = []
        sessions.reserveCapacity(parts.reduce(0) { $0 + $1.sessions.count })
        var byID: [[UInt8]: Int] = [:]
        for part in parts {
            for session in part.sessions {
                if let index = byID[session.id] {
                    if session.lastObserved >= sessions[index].lastObserved { sessions[index] = session }
                    continue
                }
                byID[session.id] = sessions.count
                sessions.append(session)
            }
        }
        // Stable: sessions last active in the same millisecond keep the order they were taken in.
        let order = sessions.indices.sorted { a, b in
            sessions[a].lastObserved != sessions[b].lastObserved ? sessions[a].lastObserved < sessions[b].lastObserved : a < b
        }
        return EngineSnapshot(version: currentVersion, apps: parts.last?.apps ?? [], sessions: order.map { sessions[$0] })
    }
}
