/// The live sessions captured in slices for a checkpoint, so that checkpointing any number of
/// sessions never holds the engine's thread for long: each slice copies the state of the
/// sessions of the next slots (values that may cross to another thread, which encodes and
/// writes them), and the last slice adds the apps' rule state. The walk is by table slot, as
/// `SessionScan`'s: a session that lives through the walk is captured once, as it was when its
/// slice was taken; one that starts or ends meanwhile may or may not be.
extension Engine {
    /// Where a checkpoint's walk of the live sessions stands. Made and used on the engine's thread.
    public final class CheckpointWalk {
        /// The next slot to visit.
        fileprivate var nextSlot = 0
        /// Whether every slot was visited (the last slice had the apps).
        public fileprivate(set) var finished = false
        /// Sessions captured so far.
        public fileprivate(set) var sessions = 0

        /// A walk from the first slot.
        public init() {}
    }

    /// The next slice of `walk`: the live sessions from where it stands, until `limit` of them
    /// or until `shouldStop` says so (asked every 16 slots); once every slot was visited, the
    /// apps' rule state too.
    public func checkpointSlice(_ walk: CheckpointWalk, limit: Int, shouldStop: () -> Bool) -> EngineSnapshot {
        var sessions: [EngineSnapshot.SessionState] = []
        sessions.reserveCapacity(min(limit, table.count))
        var visited = 0
        while walk.nextSlot < table.slotCount {
            if sessions.count >= limit || (visited & 15 == 15 && shouldStop()) { break }
            let slot = walk.nextSlot
            walk.nextSlot += 1
            visited += 1
            guard let session = table.session(inSlot: slot) else { continue }
            sessions.append(saved(session))
        }
        walk.sessions += sessions.count
        if walk.nextSlot >= table.slotCount { walk.finished = true }
        return EngineSnapshot(
            version: EngineSnapshot.currentVersion,
            apps: walk.finished ? savedApps() : [],
            sessions: sessions
        )
    }
}

@available(*, unavailable)
extension Engine.CheckpointWalk: Sendable {}
