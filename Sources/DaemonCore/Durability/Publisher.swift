import ByteBasics
import ConnectionLimits
import ControlProtocol
import CurveAuthentication
import EventDecoding
import Foundation
import HistoryStore
import Logging
import SessionEngine
import Synchronization
import ZeroMQ

/// The publishing thread's side, made on that thread and confined to it: it owns the
/// violations publish socket (an `XPUB`, whose subscriptions its `SubscriptionGuard` bounds)
/// and the history's writer, and takes from the `HandOver`. For
/// what it takes from the ingest thread, it commits the violations to the history
/// store in one transaction, then publishes every record in order. So a subscriber
/// never sees a violation the history does not have.
///
/// Its life is a small state machine (`State`), one step per phase:
/// `waiting` → `gathering` → `storing` → `waiting` … until `HandOver.finish`
/// leads to `finished`.
final class Publisher {
    /// When a group is committed (group commit): with everything the hand-over holds when the
    /// group is gathered. Under light load a batch is committed (and published) the moment it
    /// arrives; under heavy load the batches that arrived while the previous commit ran, and
    /// within `commitSpacingUs` of its start, form the next one, so commits grow with the load
    /// and a violation waits at most the spacing beyond the commit it is in. A group of
    /// `maxBytesPerCommit` takes nothing more (the hand-over's own bound caps what one take adds).
    static let maxBytesPerCommit = 8 << 20
    /// How often the retention runs, unless its settings say otherwise. The history holds up to this long's violations past
    /// `max_rows` (at 3,500 violations/s a minute is 210,000 rows and hundreds of MiB, which
    /// can fill a small state directory by itself), and each prune deletes about as many.
    static let pruneIntervalMs: Int64 = 5_000
    /// While commits follow each other (busy), a commit starts at least this long after the
    /// previous one started; a group that finds the store idle (the previous commit started
    /// longer ago) is committed at once. A commit costs the pages it touches, so a commit of a
    /// few violations costs far more per violation than a commit of a thousand, and committing
    /// every hand-over as it comes would keep the thread busy at a few thousand violations a
    /// second (docs/PERFORMANCE.md, "What bounds each figure"). This bounds commits to ~3,300 a second while adding at most
    /// ~300 µs to a violation's wait.
    static let defaultCommitSpacingUs: Int64 = 300

    private enum State {
        /// Blocked until the ingest thread hands something over.
        case waiting
        /// A batch arrived: taking every batch already waiting into the same group.
        case gathering
        /// The group is complete: commit it, publish it, then go on to `next`.
        case storing(next: Next)
        /// Everything handed over is stored and published: the thread ends.
        case finished
    }

    /// Where `storing` leads.
    private enum Next {
        case waiting, finished
    }

    /// How many records are published between two reads of the subscriptions.
    static let recordsPerSubscriptionRead = 256

    /// The endpoint the publish socket bound.
    let boundEndpoint: String
    private let handOver: HandOver
    private let pub: ZMQSocket
    /// Reads the publish socket's subscriptions and bounds them.
    private let subscriptions: SubscriptionGuard
    /// The history's writer, with the spool of what it could not take (violations.md).
    private let keeper: HistoryKeeper?
    private let checkpointer: HistoryCheckpointer?
    private let statistics: PublishingStatistics
    private let logger: Logger
    /// The daemon's clock: the `observed` time of the notices this thread publishes.
    private let clock: DaemonClock
    /// The `history_unavailable` notice, written in place.
    private var notice = DiagnosticMessage()
    private var state = State.waiting
    /// The batches of one commit, end to end (batches are self-delimiting records).
    private var group: [UInt8] = []
    private var lastPrune = PosixClock.monotonic.milliseconds() - Publisher.pruneIntervalMs
    /// `PublishingThread.Retention.intervalMs`.
    private let pruneIntervalMs: Int64
    /// Whether the last retention slice was full: more may be left to delete.
    private var pruneBacklog = false
    /// When the last transaction of violations started (monotonic µs).
    private var lastCommitStartUs: Int64 = .min / 2
    /// `PublishingThread.Settings.commitSpacingUs`.
    private let commitSpacingUs: Int64

    /// Binds the publish socket and opens the history; on an error, closes what it opened.
    init(
        _ settings: PublishingThread.Settings,
        statistics: PublishingStatistics,
        health: StoreHealth
    ) throws(DaemonError) {
        let pub: ZMQSocket
        do {
            pub = try ZMQSocket(settings.context, type: .xpub, linger: 1000)
            try pub.set(.sendHighWaterMark, 100_000)
            // A subscriber's messages are subscriptions: one longer than any topic is refused
            // (libzmq drops that peer's connection) before it reaches the subscription trie.
            try pub.set(.maxMessageSize, EventLimits.maxSubscriptionMessageBytes)
            // Every subscription comes up, with its connection, to be counted (SubscriptionGuard).
            try pub.set(.xpubVerboser, true)
            // A connection that never speaks ZMTP (bare TCP) is closed soon, as on the ingest socket.
            try pub.set(.handshakeInterval, ConnectionGuard.handshakeIntervalMs)
            // Drops become visible (EAGAIN) so that they can be counted; see send(_:_:).
            try pub.set(.xpubNoDrop, true)
            if let key = settings.curveSecretKey { try ZapHandler.makeServer(pub, secretKey: key) }
            try pub.bind(settings.publish)
            if settings.monitorConnections { try ConnectionGuard.monitor(pub, name: "publish") }
            boundEndpoint = (try? pub.lastEndpoint) ?? settings.publish
        } catch {
            throw DaemonError(
                .endpoint,
                "cannot bind publish to \(settings.publish): \(error.reason); is another modalwatchd running? choose another endpoint with --publish",
                underlying: error
            )
        }
        var keeper: HistoryKeeper?
        var checkpointer: HistoryCheckpointer?
        if let target = settings.history {
            do {
                keeper = try HistoryKeeper(
                    target: target,
                    bounds: settings.spool,
                    walLimitBytes: settings.walLimitBytes,
                    retention: settings.retention,
                    clock: settings.clock,
                    statistics: statistics,
                    health: health,
                    logger: settings.logger
                )
                // SQLite: WAL checkpoints on a thread of their own, so that a commit here (and so
                // a publication) never waits for one.
                if case .sqlite(let path) = target {
                    checkpointer = HistoryCheckpointer(path: path)
                    try checkpointer?.start()
                }
            } catch {
                checkpointer?.stop()
                pub.close()
                throw DaemonError(
                    .systemCall,
                    "cannot open the history store \(target.description): \(HistoryStoreError.oneLine(error)); check --state-dir and its permissions",
                    underlying: error
                )
            }
        }
        self.handOver = settings.handOver
        self.pub = pub
        self.subscriptions = SubscriptionGuard(
            limits: settings.subscriptionLimits,
            name: "publish",
            boundEndpoint: boundEndpoint,
            logger: settings.logger
        )
        self.keeper = keeper
        self.checkpointer = checkpointer
        self.commitSpacingUs = settings.commitSpacingUs
        self.pruneIntervalMs = settings.retention.intervalMs
        self.statistics = statistics
        self.logger = settings.logger
        self.clock = settings.clock
        group.reserveCapacity(1 << 20)
    }

    /// Runs the phases until `finished`, then closes the checkpointer and the sockets.
    func run() {
        defer { close() }
        while true {
            switch state {
            case .waiting: state = waitForHandOver()
            case .gathering: state = gather()
            case .storing(let next):
                storeAndPublish()
                pruneIfDue()
                state = next == .finished ? .finished : .waiting
            case .finished: return
            }
        }
    }

    /// `waiting`: sleeps until the ingest thread hands something over. A batch starts a group at once.
    private func waitForHandOver() -> State {
        group.removeAll(keepingCapacity: true)
        var timeoutMs = HistoryKeeper.identityCheckIntervalMs
        // Every turn (at least once a second): libzmq queues them as it takes them in.
        if serveSubscriptions() { timeoutMs = 0 }
        if let keeper {
            // The store's checks (the state directory, the WAL) once a second, and while the
            // store fails, a retry every so often, between hand-overs.
            keeper.checkIfDue()
            if keeper.hasSpooled { keeper.retryIfDue() }
            publishNotice(keeper)
            if keeper.hasSpooled { timeoutMs = HistoryKeeper.retryIntervalMs }
            pruneIfDue()
            if pruneBacklog { timeoutMs = 0 }
        }
        switch handOver.take(into: &group, waitingMs: Int(timeoutMs)) {
        case .nothing: return .waiting
        case .finished: return .finished
        case .records: return .gathering
        }
    }

    /// `gathering`: takes every batch already waiting. Waits for more only while the store is
    /// busy: until `commitSpacingUs` after the last commit started.
    private func gather() -> State {
        let earliest = lastCommitStartUs + commitSpacingUs
        let now = PosixClock.monotonic.microseconds()
        // Busy: the batches that come meanwhile wait in the hand-over and join this group.
        if now < earliest { usleep(UInt32(earliest - now)) }
        guard group.count < Self.maxBytesPerCommit else { return .storing(next: .waiting) }
        // `finished` only once nothing waits: everything handed over is in this group.
        return handOver.take(into: &group) == .finished ? .storing(next: .finished) : .storing(next: .waiting)
    }

    /// `storing`: commits the group's violations in one transaction, then publishes every record.
    private func storeAndPublish() {
        guard !group.isEmpty else { return }
        group.withUnsafeBytes { bytes in
            if let keeper, Self.containsViolation(bytes) {
                lastCommitStartUs = PosixClock.monotonic.microseconds()
                keeper.store(bytes)
            }
            // One message a record (violations.md); the counters once a group.
            var violations: UInt64 = 0
            var diagnostics: UInt64 = 0
            var reader = OutboundBatchReader(bytes)
            var records = 0
            while let record = reader.next() {
                // Sends take subscriptions in too (libzmq processes the socket's commands then).
                records += 1
                if records % Self.recordsPerSubscriptionRead == 0 { serveSubscriptions() }
                switch record {
                case .violation(let topic, let payload, _):
                    if send(topic, payload) { violations += 1 }
                case .diagnostic(let topic, let payload):
                    if send(topic, payload) { diagnostics += 1 }
                }
            }
            if violations > 0 { statistics.violationsPublished.add(violations, ordering: .relaxed) }
            if diagnostics > 0 { statistics.diagnosticsPublished.add(diagnostics, ordering: .relaxed) }
        }
        if let keeper { publishNotice(keeper) }
        serveSubscriptions()
    }

    /// Publishes `diag/-/history_unavailable` when violations were lost past the spool's bound
    /// (at most one a second).
    private func publishNotice(_ keeper: HistoryKeeper) {
        guard let detail = keeper.takeUnavailableNotice() else { return }
        notice.write(.historyUnavailable, app: nil, session: nil, detail: detail, observed: clock.milliseconds())
        let sent = notice.withBytes { topic, payload in send(topic, payload) }
        if sent { statistics.diagnosticsPublished.add(1, ordering: .relaxed) }
    }

    /// Applies the retention every `pruneIntervalMs` (the settings'), a slice a call (`HistoryRetaining.pruneSlice`);
    /// while a call deleted a whole slice, the next comes at once, between hand-overs.
    private func pruneIfDue() {
        let now = PosixClock.monotonic.milliseconds()
        guard let keeper, pruneBacklog || now - lastPrune > pruneIntervalMs else { return }
        lastPrune = now
        let pruned = keeper.prune()
        if let pruned { statistics.historyPruned.add(UInt64(pruned), ordering: .relaxed) }
        pruneBacklog = (pruned ?? 0) >= keeper.pruneSlice
    }

    /// Reads the publish socket's subscriptions (`SubscriptionGuard.serve(_:_:)`), counting those
    /// refused; whether more may wait.
    @discardableResult
    private func serveSubscriptions() -> Bool {
        subscriptions.serve(pub) { event in
            if case .refused = event { statistics.subscriptionsRefused.add(1, ordering: .relaxed) }
        }
    }

    private func close() {
        keeper?.finish()
        checkpointer?.stop()
        pub.close()
    }

    /// Sends one message. The socket runs with ZMQ_XPUB_NODROP, so a full subscriber queue
    /// shows as EAGAIN instead of a silent drop: that is counted as a subscriber overflow,
    /// and the message goes out once more in lossy mode so that every subscriber that keeps
    /// up still gets it. libzmq then leaves the full subscriber out until it catches up, so
    /// the count is of overflows, not of each message it missed. The history has them all.
    private func send(_ topic: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) -> Bool {
        do {
            if try pub.send(topic, flags: [.more, .dontWait]) {
                // The queue limit counts whole messages: the second frame always fits once the first did.
                _ = try pub.send(payload, flags: [.dontWait])
                return true
            }
            statistics.subscriberOverflows.add(1, ordering: .relaxed)
            try pub.set(.xpubNoDrop, false)
            defer { try? pub.set(.xpubNoDrop, true) }
            guard try pub.send(topic, flags: [.more, .dontWait]) else {
                statistics.messagesDropped.add(1, ordering: .relaxed)
                return false
            }
            _ = try pub.send(payload, flags: [.dontWait])
            return true
        } catch {
            statistics.messagesDropped.add(1, ordering: .relaxed)
            return false
        }
    }

    /// Whether the records hold at least one violation (a group of diagnostics alone needs no transaction).
    private static func containsViolation(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var reader = OutboundBatchReader(bytes)
        while let record = reader.next() {
            if case .violation = record { return true }
        }
        return false
    }
}

@available(*, unavailable)
extension Publisher: Sendable {}
