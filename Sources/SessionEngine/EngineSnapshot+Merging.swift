/// A checkpoint's parts made one snapshot again.
extension EngineSnapshot {
    /// The parts of one checkpoint (its slices, in the order they were taken) as one snapshot:
    /// a session captured twice (it ended and started again in another slot during the walk)
    /// counts as it was last active; the sessions least recently active first, as a snapshot
    /// keeps them; the apps' rule state from the last part, which holds it.
    public static func merged(_ parts: [EngineSnapshot]) -> EngineSnapshot {
        var sessions: [SessionState] = []
        sessions.reserveCapacity(parts.reduce(0) { $0 + $1.sessions.count })
        var byID: [SessionKey: Int] = [:]
        byID.reserveCapacity(sessions.capacity)
        for part in parts {
            for session in part.sessions {
                let key = SessionKey(session.id)
                if let index = byID[key] {
                    if session.lastObserved >= sessions[index].lastObserved { sessions[index] = session }
                    continue
                }
                byID[key] = sessions.count
                sessions.append(session)
            }
        }
        // Sorted by (last active, order taken): stable for sessions last active in the same millisecond.
        var order = sessions.indices.map { (lastObserved: sessions[$0].lastObserved, index: $0) }
        order.sort { $0.lastObserved != $1.lastObserved ? $0.lastObserved < $1.lastObserved : $0.index < $1.index }
        return EngineSnapshot(
            version: currentVersion,
            apps: parts.last?.apps ?? [],
            sessions: order.map { sessions[$0.index] }
        )
    }

    /// A session id as a dictionary key hashed in one call over its bytes (an array of bytes
    /// hashes byte by byte).
    private struct SessionKey: Hashable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
