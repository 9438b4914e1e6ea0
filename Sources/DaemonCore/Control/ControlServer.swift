import ByteBasics
import ConnectionLimits
import ControlProtocol
import HistoryStore
import Logging
import ModalwatchConfig
import Posix
import SessionEngine
import ShardRouting
import ZeroMQ

/// The control thread's side, made on that thread and confined to it: it owns the control
/// `REP` socket, its end of the PAIR to the ingest thread, and a read-only history connection.
/// It reads each request, answers `violations`, the history part of `session`, and `status`
/// (from the counters the ingest loop publishes, `CounterSnapshot`) itself, hands
/// the rest to the ingest thread (`ControlExchange.Job`), waits for the answer, and encodes and
/// sends the reply. So reading the history and building big replies happen here, and the
/// ingest thread spends on a request only the time it needs to read the engine, in slices.
final class ControlServer {
    /// While waiting for the ingest thread, the exchange is looked at at least this often (ms),
    /// even without a bell.
    private static let answerPollMs = 100
    /// While waiting for the ingest loop's first counters (it publishes them before READY), the
    /// exchange is looked at this often (ms).
    private static let firstCountersPollMs = 10

    let boundEndpoint: String
    private let control: ZMQSocket
    private let pair: ZMQSocket
    private let poller = ZMQPoller()
    /// The PAIR alone, for waiting on the ingest thread's answers.
    private let pairPoller = ZMQPoller()
    private var history: (any HistoryReading)?
    private let historyTarget: HistoryKeeper.Target?
    private let keepsHistory: Bool
    private let configurationSource: IngestLoop.ConfigurationSource
    private let reloadRefused: Bool
    private let exchange: ControlExchange
    private let logger: Logger
    /// The other daemons' shards, asked on this thread (`shard.peers`); nil without peers.
    private let peerWatch: ShardPeerWatch?
    private let clock: DaemonClock
    private var trimmer = MemoryTrimmer()
    private var finishing = false
    /// A job was posted but its bell could not be queued: it is rung again while waiting.
    private var bellOwed = false

    /// Opens the sockets and the history; on an error closes what it opened and throws.
    init(_ settings: ControlThread.Settings, exchange: ControlExchange) throws(DaemonError) {
        self.exchange = exchange
        logger = settings.logger
        clock = settings.clock
        let control: ZMQSocket
        let pair: ZMQSocket
        do {
            control = try ZMQSocket(settings.context, type: .rep, linger: 0)
        } catch {
            throw DaemonError(.systemCall, "cannot create a REP socket: \(error)", underlying: error)
        }
        do {
            pair = try ZMQSocket(settings.context, type: .pair, linger: 0)
        } catch {
            control.close()
            throw DaemonError(.systemCall, "cannot create a PAIR socket: \(error)", underlying: error)
        }
        do throws(DaemonError) {
            try Self.configure(control)
            boundEndpoint = try Self.bind(control, settings.control, logger: settings.logger)
            if settings.monitorConnections {
                do { try ConnectionGuard.monitor(control, name: "control") } catch {
                    throw DaemonError(.systemCall, "cannot monitor the control socket: \(error)", underlying: error)
                }
            }
            // The ingest side has bound it already: the first request's bell has a pipe to go through.
            do { try pair.connect(settings.pair) } catch {
                throw DaemonError(.systemCall, "cannot connect the control PAIR: \(error)", underlying: error)
            }
            do {
                _ = try poller.add(control)
                _ = try poller.add(pair)
                _ = try pairPoller.add(pair)
            } catch {
                throw DaemonError(.systemCall, "cannot poll sockets: \(error)", underlying: error)
            }
        } catch {
            control.close()
            pair.close()
            throw error
        }
        self.control = control
        self.pair = pair
        keepsHistory = settings.history != nil
        historyTarget = settings.history
        configurationSource = settings.configurationSource
        reloadRefused = settings.reloadRefused
        history = try? settings.history?.openReader()
        let watch = ShardPeerWatch(
            context: settings.context,
            own: settings.shard,
            ownEndpoint: boundEndpoint,
            peers: settings.shardPeers,
            logger: logger,
            nowMs: PosixClock.monotonic.milliseconds()
        )
        do { try watch.add(to: poller) } catch {
            logger.warning("shard peers not watched: cannot poll their sockets", metadata: ["error": "\(error)"])
        }
        peerWatch = watch.isEmpty ? nil : watch
        if watch.isEmpty { watch.close() }
    }

    /// Serves requests until the ingest side says `finish` or the context ends, then closes the sockets.
    func run() {
        while !finishing {
            do {
                _ = try poller.poll(timeout: 1000)
            } catch {
                if error.isTerminated { break }
                if !error.isInterrupted { logger.error("control poll failed", metadata: ["error": "\(error)"]) }
                continue
            }
            if poller.isReadable(1) { readBells() }
            if finishing { break }
            if poller.isReadable(0) { serve() }
            peerWatch?.turn(poller, nowMs: PosixClock.monotonic.milliseconds())
            trimmer.trimIfDue(now: PosixClock.monotonic.milliseconds())
        }
        peerWatch?.close()
        control.close()
        pair.close()
    }

    /// Reads every bell waiting on the PAIR; notes a `finish`.
    private func readBells() {
        while let frame = try? pair.receiveFrame(dontWait: true) {
            if frame.first == ControlExchange.Bell.finish.rawValue { finishing = true }
        }
    }

    /// Reads one request and sends its reply.
    private func serve() {
        let request: ZMQMultipart?
        do {
            request = try control.receiveMultipart(maxFrames: 1, dontWait: true)
        } catch {
            return
        }
        guard let request else { return }
        guard let reply = reply(to: request.frames.first ?? []) else { return }  // finishing: no reply
        trimmer.noteReply(bytes: reply.count)
        exchange.noteAnswered()
        do {
            _ = try control.send(reply, flags: [.dontWait])
        } catch {
            logger.warning("control reply not sent", metadata: ["error": "\(error)"])
        }
    }

    /// The reply to one request frame, as JSON bytes; nil when the daemon stops meanwhile.
    private func reply(to request: [UInt8]) -> [UInt8]? {
        do throws(ControlRefusal) {
            switch try ControlRequest(parsing: request) {
            case .status:
                guard var reply = currentStatus() else { return nil }
                peerWatch?.fill(&reply)
                return ControlReply.encode(reply)
            case .rules:
                guard case .rules(let reply)? = ask(.rules) else { return nil }
                return ControlReply.encode(reply)
            case .reload:
                if reloadRefused {
                    throw ControlRefusal(
                        "reload is refused on a tcp:// control endpoint; send SIGHUP, use an ipc:// control endpoint, or set control_allow_reload_over_tcp: true"
                    )
                }
                // Read (a file, parsed) here; the ingest thread only puts it in force.
                guard case .reload(let result)? = ask(.reload(IngestLoop.readConfiguration(configurationSource))) else {
                    return nil
                }
                return ControlReply.encode(try result.get())
            case .session(let request):
                guard case .session(let result)? = ask(.session(request)) else { return nil }
                var reply = try result.get().reply(request, now: clock.milliseconds())
                addViolations(to: &reply, request)
                return ControlReply.encode(reply)
            case .sessions(let request):
                return try sessions(request).map { ControlReply.encode($0) }
            case .violations(let request):
                return ControlReply.encode(try violations(request))
            }
        } catch {
            return ControlReply.refusal(error)
        }
    }

    /// The `status` reply: the ingest loop's latest counters with this thread's live parts (the
    /// uptime, the checkpoint's age, the control requests answered). Before the loop's first
    /// publication, waits for it; nil when the daemon stops meanwhile.
    private func currentStatus() -> StatusReply? {
        while true {
            if let reply = exchange.counters.reply(
                nowMonotonicMs: PosixClock.monotonic.milliseconds(),
                nowMs: clock.milliseconds(),
                controlRequests: exchange.requestsAnswered
            ) {
                return reply
            }
            // The PAIR is read meanwhile for a `finish`.
            do {
                if try pairPoller.poll(timeout: Self.firstCountersPollMs) > 0 { readBells() }
            } catch {
                return nil
            }
            if finishing { return nil }
        }
    }

    // MARK: - Waiting for the ingest thread

    /// Posts `job`, rings, and waits for the one answer; nil when the daemon stops meanwhile.
    private func ask(_ job: ControlExchange.Job) -> ControlExchange.Answer? {
        post(job)
        while let answers = nextAnswers() {
            if let answer = answers.first { return answer }
        }
        return nil
    }

    private func post(_ job: ControlExchange.Job) {
        exchange.post(job)
        ring()
    }

    /// Tells the ingest thread that a job waits; a bell that cannot be queued now is owed, and
    /// rung again at each look at the exchange until it goes (the ingest thread takes jobs only
    /// on a bell).
    private func ring() {
        do {
            bellOwed = try !pair.send([ControlExchange.Bell.posted.rawValue], flags: [.dontWait])
        } catch {
            bellOwed = true
            logger.warning(
                "control job not signalled to the ingest thread; trying again",
                metadata: ["error": "\(error)"]
            )
        }
    }

    /// Waits for the ingest thread's next answers (empty on a timeout); nil when it says `finish`.
    private func nextAnswers() -> [ControlExchange.Answer]? {
        do {
            if try pairPoller.poll(timeout: Self.answerPollMs) == 0 {
                if bellOwed { ring() }
                return exchange.takeAnswers()
            }
        } catch {
            return nil
        }
        readBells()
        return finishing ? nil : exchange.takeAnswers()
    }

    // MARK: - Commands

    /// `sessions`: the slices the ingest thread sends, sorted and cut here, one page of at most
    /// `SessionsRequest.maximumReplyBytes` of sessions after the request's cursor.
    private func sessions(_ request: SessionsRequest) throws(ControlRefusal) -> SessionsReply? {
        var cursor: SessionRanking.Cursor?
        if let text = request.cursor {
            guard let parsed = SessionRanking.Cursor(text: text), parsed.sort == request.sort else {
                throw ControlRefusal("cursor must be the \"next\" of an earlier sessions reply with the same sort")
            }
            cursor = parsed
        }
        post(.sessions(request))
        var listing = SessionRanking(order: request.sort, limit: request.limit, cursor: cursor)
        // The journal's alerts come in the first slices, before any session.
        var alerts = Engine.JournalAlerts()
        while let answers = nextAnswers() {
            for answer in answers {
                switch answer {
                case .sessionsSlice(.sessions(let sessions)):
                    if listing.alerts == nil { listing.alerts = alerts.index() }
                    listing.add(sessions)
                case .sessionsSlice(.alerts(let more)): alerts.append(more)
                case .sessionsEnd:
                    let page = listing.finish()
                    return SessionsReply(
                        total: listing.total,
                        now: clock.milliseconds(),
                        sessions: page.sessions,
                        next: page.next?.text
                    )
                default: break
                }
            }
        }
        return nil
    }

    /// The session's violations from the history, newest first, through its session index.
    private func addViolations(to reply: inout SessionReply, _ request: SessionRequest) {
        guard let history = reader() else {
            reply.violationsError =
                keepsHistory
                ? "the history store could not be opened for reading"
                : "this daemon keeps no history (no state directory); start it with --state-dir"
            return
        }
        do {
            let rows = try history.find(
                HistoryQuery(app: reply.session.app, session: request.id, limit: request.violations)
            )
            reply.violations = rows.compactMap(Self.published)
        } catch {
            reply.violationsError = "the history store could not be read: \(HistoryStoreError.oneLine(error))"
            dropReaderIfRemote()
        }
    }

    /// The history's reader: opened again when the last one failed (a PostgreSQL server that went away).
    private func reader() -> (any HistoryReading)? {
        if history == nil { history = try? historyTarget?.openReader() }
        return history
    }

    /// After a read error: a PostgreSQL reader is opened anew next time (its connection may be gone).
    private func dropReaderIfRemote() {
        if case .postgresql? = historyTarget { history = nil }
    }

    private func violations(_ request: ViolationsRequest) throws(ControlRefusal) -> ViolationsReply {
        guard let history = reader() else {
            throw ControlRefusal(
                keepsHistory
                    ? "the history store could not be opened for reading"
                    : "this daemon keeps no history (no state directory); start it with --state-dir"
            )
        }
        var query = HistoryQuery(
            app: request.app,
            rule: request.rule,
            session: request.session,
            locale: request.locale,
            limit: request.limit
        )
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
            query.sinceObserved = clock.milliseconds().subtractingSaturated(ms)
        case .wallClock(let ms)?:
            query.sinceObserved = ms
        }
        do {
            // Paged: a reply holds at most maximumReplyBytes of violations, then says where to go on.
            let page = try history.findPage(query, after: cursor, maxBytes: ViolationsRequest.maximumReplyBytes)
            return ViolationsReply(violations: page.rows.compactMap(Self.published), next: page.next?.text)
        } catch {
            dropReaderIfRemote()
            throw ControlRefusal("the history store could not be read: \(HistoryStoreError.oneLine(error))")
        }
    }

    /// A stored violation as it goes into a reply: its JSON exactly as published, not parsed
    /// again (nil for a row that does not hold a JSON object, which the daemon never writes).
    static func published(_ row: StoredViolation) -> JSONValue? {
        let bytes = Array(row.json.utf8)
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        return .raw(RawJSON(bytes: bytes))
    }

    // MARK: - Set-up

    private static func configure(_ control: ZMQSocket) throws(DaemonError) {
        do {
            try control.set(.linger, 0)
            // Bounded per peer (docs/RELIABILITY.md): a client that pipelines requests and never
            // reads holds at most this many replies (each at most 256 KiB of violations) in the
            // daemon; past it libzmq drops the reply. Requests are small.
            try control.set(.sendHighWaterMark, ControlLimits.repliesQueuedPerPeer)
            try control.set(.receiveHighWaterMark, ControlLimits.requestsQueuedPerPeer)
            try control.set(.maxMessageSize, ControlLimits.maxRequestBytes)
            // A connection that never speaks ZMTP (bare TCP) is closed soon, as on the ingest socket.
            try control.set(.handshakeInterval, ConnectionGuard.handshakeIntervalMs)
        } catch {
            throw DaemonError(.systemCall, "cannot set socket options: \(error)", underlying: error)
        }
    }

    private static func bind(_ control: ZMQSocket, _ endpoint: String, logger: Logger) throws(DaemonError) -> String {
        do {
            try control.bind(endpoint)
        } catch {
            throw DaemonError(
                .endpoint,
                "cannot bind control to \(endpoint): \(error.reason); is another modalwatchd running? choose another endpoint with --control",
                underlying: error
            )
        }
        if endpoint.hasPrefix("ipc://") {
            // Owner and group only: whoever may run `modalwatch` shares the daemon's group.
            let path = String(endpoint.dropFirst("ipc://".count))
            do {
                try Posix.chmod(path, 0o660)
            } catch {
                logger.warning(
                    "could not set mode 0660 on the control socket",
                    metadata: ["path": "\(path)", "error": "\(error)"]
                )
            }
        }
        return (try? control.lastEndpoint) ?? endpoint
    }
}

@available(*, unavailable)
extension ControlServer: Sendable {}
