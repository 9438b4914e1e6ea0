import ByteBasics
import ControlProtocol
import SessionEngine

/// The engine's part of a `session` reply, read on the ingest thread (`ControlHandler`): the live
/// session, if any, and what the journal holds of it. The control thread turns it into the reply
/// (`reply(_:now:)`), so building the records of up to 16,384 events does not hold ingest.
struct SessionReplyParts: Sendable {
    /// The live session, or nil for one that ended.
    var snapshot: SessionSnapshot?
    /// What the journal holds of the session, as it is.
    var journalCopy: Engine.JournalCopy
    /// The journal's capacity, events recorded and events held.
    var capacity: Int, recorded: Int, held: Int

    /// The `session` reply, without the history's violations; a refusal for a session that is
    /// neither live nor in the journal.
    func reply(_ request: SessionRequest, now: Int64) throws(ControlRefusal) -> SessionReply {
        let id = request.id
        let excerpt = journalCopy.excerpt()
        guard snapshot != nil || !excerpt.records.isEmpty else {
            throw ControlRefusal(
                "no session '\(id)' is live or still in the journal; `modalwatch sessions` lists the live ones"
            )
        }
        let journal = SessionReply.Journal(
            capacity: capacity,
            recorded: recorded,
            held: held,
            events: excerpt.records.count,
            complete: excerpt.complete
        )
        let records = Self.journalRecords(excerpt, now: now)
        var info: SessionInfo
        if let snapshot {
            info = Self.sessionInfo(snapshot)
            info.live = true
            info.stack = snapshot.stack.enumerated().map { depth, entry in
                // Wall-clock age: when the session's latest event arrived, less the event time since.
                // Saturating: a snapshot of an older daemon may hold any event time.
                let arrivedAgo = now.subtractingSaturated(snapshot.lastObserved)
                var item = SessionInfo.StackEntry(
                    depth: depth,
                    kind: entry.kind,
                    id: entry.id,
                    ts: entry.ts,
                    navDepth: entry.navDepth,
                    ageMs: max(0, arrivedAgo.addingSaturated(snapshot.lastTs.subtractingSaturated(entry.ts)))
                )
                if let presented = excerpt.records.last(where: {
                    $0.type.hasSuffix(".presented") && $0.id == entry.id && $0.ts == entry.ts
                }) {
                    item.title = presented.title
                    item.truncated = presented.truncated
                    item.ageMs = max(0, now.subtractingSaturated(presented.observed))
                }
                return item
            }
        } else {
            // Ended or released: what the journal remembers of its last launch.
            let first = excerpt.records.first
            let last = excerpt.records.last
            let alertPresented = WireEventType.alertPresented.string
            info = SessionInfo(
                id: id,
                app: excerpt.records.first(where: { $0.app != nil })?.app,
                startedTs: first?.sessionStartedTs,
                lastTs: last?.ts,
                lastObserved: last?.observed,
                events: excerpt.records.count,
                alerts: excerpt.records.filter { $0.type == alertPresented }.count,
                violations: Int(clamping: last?.violations ?? 0)
            )
            info.live = false
            info.stack = []
        }
        let timeline = zip(excerpt.records, records).filter { $0.0.type.hasPrefix("alert.") }.map(\.1)
        return SessionReply(
            session: info,
            now: now,
            timeline: Array(timeline.suffix(200)),
            events: Array(records.suffix(request.events)),
            journal: journal,
            violations: nil
        )
    }

    /// A session's snapshot as it goes into a reply.
    static func sessionInfo(_ s: SessionSnapshot) -> SessionInfo {
        SessionInfo(
            id: s.id,
            app: s.app,
            device: s.device,
            edition: s.edition,
            startedTs: s.startedTs,
            lastTs: s.lastTs,
            lastObserved: s.lastObserved,
            events: Int(clamping: s.events),
            alerts: Int(clamping: s.alerts),
            presentations: Int(clamping: s.presentations),
            modalDepth: s.modalDepth,
            maxDepth: s.maxModalDepth,
            violations: Int(clamping: s.violations),
            foreground: s.foreground,
            tasksRunning: s.tasksRunning,
            stackDepth: s.stack.count
        )
    }

    /// The journal's records, oldest first, with the violations each event raised.
    static func journalRecords(_ excerpt: Engine.JournalExcerpt, now: Int64) -> [JournalRecord] {
        var previous: UInt64? = excerpt.complete ? 0 : nil
        let userAction = WireEventType.userAction.string
        return excerpt.records.map { record in
            let label = record.type == userAction
            let item = JournalRecord(
                type: record.type,
                ts: record.ts,
                observed: record.observed,
                ageMs: max(0, now.subtractingSaturated(record.observed)),
                modalDepth: record.modalDepth,
                stackDepth: record.stackDepth,
                seq: record.seq > 0 ? record.seq : nil,
                id: record.id,
                title: label ? nil : record.title,
                label: label ? record.title : nil,
                truncated: record.truncated,
                button: record.button,
                via: record.via,
                state: record.state,
                control: record.control,
                device: record.device,
                app: record.app,
                newViolations: previous.map { Int(clamping: record.violations >= $0 ? record.violations - $0 : 0) }
            )
            previous = record.violations
            return item
        }
    }
}
