import ControlProtocol
import HistoryStore
import ModalwatchConfig
import RuleHost
import SessionEngine

/// Answers control requests (interfaces.md, "The control socket"; docs/control-protocol.md):
/// one JSON object in, one out, read and written with the typed requests and replies of
/// ControlProtocol; a malformed request gets a refusal, never a hang or a trap.
/// Runs on the ingest thread, so it reads the engine without locks.
final class ControlHandler {
    private unowned let loop: IngestLoop

    init(loop: IngestLoop) {
        self.loop = loop
    }

    /// The reply to one request frame, as JSON bytes.
    func reply(to request: [UInt8]) -> [UInt8] {
        do throws(ControlRefusal) {
            switch try ControlRequest(parsing: request) {
            case .status: return ControlReply.encode(loop.statusReport())
            case .sessions(let request): return ControlReply.encode(sessions(request))
            case .session(let request): return ControlReply.encode(try session(request))
            case .rules: return ControlReply.encode(loop.rulesReport())
            case .reload: return ControlReply.encode(try reload())
            case .violations(let request): return ControlReply.encode(try violations(request))
            }
        } catch {
            return ControlReply.refusal(error)
        }
    }

    // MARK: - Commands

    private func reload() throws(ControlRefusal) -> ReloadReply {
        // A state change over the network: only when the config says so (issue 8).
        if loop.configuration.control.hasPrefix("tcp://") && !loop.configuration.controlAllowReloadOverTCP {
            throw ControlRefusal("reload is refused on a tcp:// control endpoint; send SIGHUP, use an ipc:// control endpoint, or set control_allow_reload_over_tcp: true")
        }
        switch loop.reload() {
        case .success(let summary): return ReloadReply(summary: summary)
        case .failure(let failure): throw ControlRefusal("reload refused: \(failure.description); the old configuration stays in force")
        }
    }

    private func sessions(_ request: SessionsRequest) -> SessionsReply {
        let engine = loop.pipeline.engine
        let order = Engine.SessionOrder(request.sort)
        let listing = engine.sessionListing(app: request.app, order: order, limit: request.limit)
        var windows: [String: Int64] = [:]
        let sessions = listing.sessions.map { s -> SessionInfo in
            var info = Self.sessionInfo(s)
            let window = windows[s.app] ?? engine.alertWindowMs(forApp: s.app)
            windows[s.app] = window
            info.alertsWindow = listing.recentAlerts[s.id] ?? 0
            info.windowMs = window
            return info
        }
        return SessionsReply(total: listing.total, now: WallClock.milliseconds(), sessions: sessions)
    }

    private func session(_ request: SessionRequest) throws(ControlRefusal) -> SessionReply {
        let id = request.id
        let engine = loop.pipeline.engine
        let now = WallClock.milliseconds()
        let snapshot = engine.sessionSnapshot(id: id)
        guard snapshot != nil || request.ended else {
            throw ControlRefusal("no live session '\(id)'; `modalwatch sessions` lists the live ones (add \"ended\": true for one that ended)")
        }
        let excerpt = engine.journalExcerpt(session: id)
        guard snapshot != nil || !excerpt.records.isEmpty else {
            throw ControlRefusal("no session '\(id)' is live or still in the journal; `modalwatch sessions` lists the live ones")
        }
        let records = Self.journalRecords(excerpt, now: now)
        var info: SessionInfo
        if let snapshot {
            info = Self.sessionInfo(snapshot)
            info.live = true
            info.stack = snapshot.stack.enumerated().map { depth, entry in
                // Wall-clock age: when the session's latest event arrived, less the event time since.
                var item = SessionInfo.StackEntry(
                    depth: depth, kind: entry.kind, id: entry.id, ts: entry.ts, navDepth: entry.navDepth,
                    ageMs: max(0, now - snapshot.lastObserved + snapshot.lastTs - entry.ts))
                if let presented = excerpt.records.last(where: {
                    $0.type.hasSuffix(".presented") && $0.id == entry.id && $0.ts == entry.ts
                }) {
                    item.title = presented.title
                    item.truncated = presented.truncated
                    item.ageMs = max(0, now - presented.observed)
                }
                return item
            }
        } else {
            // Ended or released: what the journal remembers of its last launch.
            let first = excerpt.records.first, last = excerpt.records.last
            info = SessionInfo(
                id: id, app: excerpt.records.first(where: { $0.app != nil })?.app,
                startedTs: first?.sessionStartedTs, lastTs: last?.ts, lastObserved: last?.observed,
                events: excerpt.records.count, alerts: excerpt.records.filter { $0.type == "alert.presented" }.count,
                violations: Int(clamping: last?.violations ?? 0))
            info.live = false
            info.stack = []
        }
        let timeline = zip(excerpt.records, records).filter { $0.0.type.hasPrefix("alert.") }.map(\.1)
        var reply = SessionReply(
            session: info, now: now,
            timeline: Array(timeline.suffix(200)),
            events: Array(records.suffix(request.events)),
            journal: SessionReply.Journal(
                capacity: engine.journal.capacity, recorded: Int(clamping: engine.journal.recorded),
                held: engine.journal.count, events: excerpt.records.count, complete: excerpt.complete),
            violations: nil)
        if let history = loop.history {
            let app = snapshot?.app ?? excerpt.records.first(where: { $0.app != nil })?.app
            do {
                let rows = try history.find(HistoryQuery(app: app, session: id, limit: request.violations))
                reply.violations = rows.compactMap(Self.published)
            } catch {
                reply.violationsError = "the history store could not be read: \(error)"
            }
        } else {
            reply.violationsError = "this daemon keeps no history (no state directory); start it with --state-dir"
        }
        return reply
    }

    private func violations(_ request: ViolationsRequest) throws(ControlRefusal) -> ViolationsReply {
        guard let history = loop.history else {
            throw ControlRefusal("this daemon keeps no history (no state directory); start it with --state-dir")
        }
        var query = HistoryQuery(app: request.app, rule: request.rule, session: request.session, limit: request.limit)
        var cursor: HistoryPage.Cursor?
        if let text = request.cursor {
            guard let parsed = HistoryPage.Cursor(text: text) else {
                throw ControlRefusal("cursor must be the \"next\" of an earlier violations reply")
            }
            cursor = parsed
        }
        switch request.since {
        case nil: break
        case .duration(let text)?:
            guard let ms = DurationParser.milliseconds(text) else { throw ControlRefusal(ViolationsRequest.badSince) }
            query.sinceObserved = WallClock.milliseconds() - ms
        case .wallClock(let ms)?:
            query.sinceObserved = ms
        }
        do {
            // Paged: a reply holds at most maximumReplyBytes of violations, then says where to go on.
            let page = try history.findPage(query, after: cursor, maxBytes: ViolationsRequest.maximumReplyBytes)
            return ViolationsReply(violations: page.rows.compactMap(Self.published), next: page.next?.text)
        } catch {
            throw ControlRefusal("the history store could not be read: \(error)")
        }
    }

    // MARK: - Objects

    static func sessionInfo(_ s: SessionSnapshot) -> SessionInfo {
        SessionInfo(
            id: s.id, app: s.app, device: s.device, edition: s.edition,
            startedTs: s.startedTs, lastTs: s.lastTs, lastObserved: s.lastObserved,
            events: Int(clamping: s.events), alerts: Int(clamping: s.alerts), presentations: Int(clamping: s.presentations),
            modalDepth: s.modalDepth, maxDepth: s.maxModalDepth, violations: Int(clamping: s.violations),
            foreground: s.foreground, tasksRunning: s.tasksRunning, stackDepth: s.stack.count)
    }

    /// The journal's records, oldest first, with the violations each event raised.
    static func journalRecords(_ excerpt: Engine.JournalExcerpt, now: Int64) -> [JournalRecord] {
        var previous: UInt64? = excerpt.complete ? 0 : nil
        return excerpt.records.map { record in
            let label = record.type == "user.action"
            let item = JournalRecord(
                type: record.type, ts: record.ts, observed: record.observed, ageMs: max(0, now - record.observed),
                modalDepth: record.modalDepth, stackDepth: record.stackDepth,
                seq: record.seq > 0 ? record.seq : nil, id: record.id,
                title: label ? nil : record.title, label: label ? record.title : nil, truncated: record.truncated,
                button: record.button, via: record.via, state: record.state, control: record.control,
                device: record.device, app: record.app,
                newViolations: previous.map { Int(clamping: record.violations >= $0 ? record.violations - $0 : 0) })
            previous = record.violations
            return item
        }
    }

    /// A stored violation as it goes into a reply: its JSON exactly as published, not parsed
    /// again (nil for a row that does not hold a JSON object, which the daemon never writes).
    static func published(_ row: StoredViolation) -> JSONValue? {
        let bytes = Array(row.json.utf8)
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        return .raw(RawJSON(bytes: bytes))
    }
}

private extension Engine.SessionOrder {
    /// The engine's order for a request's sort.
    init(_ sort: SessionsRequest.Sort) {
        switch sort {
        case .alerts: self = .alerts
        case .depth: self = .depth
        case .violations: self = .violations
        case .events: self = .events
        case .recent: self = .recent
        }
    }
}
