/// A session's journal entries copied as they are, so that turning them into records (strings,
/// one per event, up to the journal's 16,384) happens on another thread than the engine's.
extension Engine {
    /// The raw journal entries of one session, newest first; `excerpt()` reads them.
    public struct JournalCopy: Sendable {
        fileprivate var entries: [SessionJournal.Entry]
        /// The live session's events, when it is live.
        fileprivate var liveEvents: UInt64?

        /// What the journal held of the session at the time of the copy: its events (the live
        /// session's current launch, or, for a session no longer live, the launch of its newest
        /// entry), oldest first, and whether they are all of that launch.
        public func excerpt() -> JournalExcerpt {
            let records = entries.reversed().map(SessionJournal.record(of:))
            let complete = records.first?.type == "session.start"
                || (liveEvents.map { UInt64(records.count) >= $0 } ?? false)
            return JournalExcerpt(records: records, complete: complete)
        }
    }

    /// Copies what the journal holds of the session `id` (`excerpt()` reads it): one pass over
    /// the journal, no strings built.
    public func journalCopy(session id: String) -> JournalCopy {
        var id = id
        return id.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            let hash = Hashing.fnv1a(bytes)
            let live = table.find(bytes, hash: hash)
            return JournalCopy(entries: journal.entries(id: bytes, hash: hash, startedTs: live?.startedTs), liveEvents: live?.events)
        }
    }
}
