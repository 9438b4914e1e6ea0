import Foundation
import HistoryStore
import Logging
import ZeroMQ

/// The thread that owns the violations `PUB` socket and writes the history:
/// for each batch from the ingest thread, it commits the violations to the
/// history store in one transaction, then publishes every record in order.
/// So a subscriber never sees a violation the history does not have.
final class PublishingThread: @unchecked Sendable {
    /// Retention of the history.
    struct Retention: Sendable {
        var maxAgeMs: Int64?
        var maxRows: Int?
    }

    let statistics = PublishingStatistics()
    /// The history store's health and spool (violations.md, the store-failure paragraph).
    let health = StoreHealth()
    /// At most this many hand-over batches, or this many bytes, go into one history transaction.
    static let maxBatchesPerCommit = 256
    /// Commits start at least this many µs apart. Each commit writes the last page of the
    /// table and of every index to the WAL again, so at a steady 100 k events/s one commit
    /// per hand-over spent most of this thread in small WAL writes; waiting up to this long
    /// after the previous commit gathers the batches of that time into one. Under a burst
    /// commits take longer than this and never wait.
    static let commitSpacingUs: Int64 = 250
    static let maxBytesPerCommit = 8 << 20
    private let context: ZMQContext
    private let handoff: String
    private let publish: String
    private let historyPath: String?
    private let retention: Retention
    private let spoolBounds: HistoryKeeper.SpoolBounds
    private let curveSecretKey: String?
    private let logger: Logger
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var startError: DaemonError?
    private(set) var boundEndpoint = ""

    init(context: ZMQContext, handoff: String, publish: String, historyPath: String?, retention: Retention,
         spool: HistoryKeeper.SpoolBounds, curveSecretKey: String?, logger: Logger) {
        self.spoolBounds = spool
        self.curveSecretKey = curveSecretKey
        self.context = context
        self.handoff = handoff
        self.publish = publish
        self.historyPath = historyPath
        self.retention = retention
        self.logger = logger
    }

    /// Starts the thread and waits until its sockets are bound and the history is open.
    func start() throws(DaemonError) {
        let thread = Thread { [self] in run() }
        thread.name = "modalwatch-publish"
        thread.start()
        started.wait()
        if let startError { throw startError }
    }

    /// Waits until the thread has published everything and closed its sockets.
    func join() { finished.wait() }

    private func run() {
        defer { finished.signal() }
        let pair: ZMQSocket, pub: ZMQSocket
        var keeper: HistoryKeeper?
        do {
            pair = try ZMQSocket(context, type: .pair, linger: 0)
            try pair.bind(handoff)
        } catch {
            startError = DaemonError(.systemCall, "cannot create the publishing hand-over socket: \(error)")
            started.signal()
            return
        }
        defer { pair.close() }
        do {
            pub = try ZMQSocket(context, type: .pub, linger: 1000)
            try pub.set(.sendHighWaterMark, 100_000)
            // Drops become visible (EAGAIN) so that they can be counted; see send(_:_:_:).
            try pub.set(.xpubNoDrop, true)
            if let curveSecretKey { try ZapHandler.makeServer(pub, secretKey: curveSecretKey) }
            try pub.bind(publish)
            boundEndpoint = (try? pub.lastEndpoint) ?? publish
        } catch {
            startError = DaemonError(.endpoint, "cannot bind publish to \(publish): \(error.reason); is another modalwatchd running? choose another endpoint with --publish")
            started.signal()
            return
        }
        defer { pub.close() }
        var checkpointer: HistoryCheckpointer?
        defer { checkpointer?.stop() }
        defer { keeper?.finish() }
        if let historyPath {
            do {
                // WAL checkpoints on a thread of their own: a commit here (and so a
                // publication) never waits for one.
                keeper = try HistoryKeeper(path: historyPath, bounds: spoolBounds, statistics: statistics, health: health, logger: logger)
                checkpointer = HistoryCheckpointer(path: historyPath)
                try checkpointer?.start()
            } catch {
                startError = DaemonError(.systemCall, "cannot open the history store \(historyPath): \(HistoryStoreError.oneLine(error)); check --state-dir and its permissions")
                started.signal()
                return
            }
        }
        started.signal()

        var message = ZMQMessage()
        var group: [UInt8] = []
        group.reserveCapacity(1 << 20)
        var lastPrune = WallClock.monotonicMilliseconds() - 60_000
        // While violations wait in the spool, the thread wakes up to retry the store.
        let poller = ZMQPoller()
        let pairIndex = (try? poller.add(pair)) ?? -1
        var finishing = false
        var lastCommitUs: Int64 = 0
        while !finishing {
            // Group commit: wait for one batch, then take every batch already waiting, and
            // store them all in one transaction (batches are self-delimiting records).
            group.removeAll(keepingCapacity: true)
            if let keeper, keeper.hasSpooled, pairIndex >= 0 {
                keeper.retryIfDue()
                publishNotice(pub, keeper)
                do { _ = try poller.poll(timeout: Int(HistoryKeeper.retryIntervalMs)) } catch {
                    if error.isTerminated { break }
                    continue
                }
                if !poller.isReadable(pairIndex) { continue }
            }
            do {
                guard try pair.receive(into: &message) else { continue }
            } catch {
                if error.isInterrupted { continue }
                break
            }
            if message.count > 0 {
                let wait = lastCommitUs + Self.commitSpacingUs - WallClock.monotonicMicroseconds()
                if wait > 0 { usleep(UInt32(wait)) }
            }
            var taken = 0
            while true {
                if message.count == 0 { finishing = true; break }  // the ingest thread is done
                message.withBytes { group.append(contentsOf: $0) }
                taken += 1
                guard taken < Self.maxBatchesPerCommit, group.count < Self.maxBytesPerCommit,
                      (try? pair.receive(into: &message, dontWait: true)) == true else { break }
            }
            if group.isEmpty { continue }
            lastCommitUs = WallClock.monotonicMicroseconds()
            group.withUnsafeBytes { bytes in
                if let keeper, Self.containsViolation(bytes) { keeper.store(bytes) }
                var again = OutboundBatchReader(bytes)
                while let record = again.next() {
                    switch record {
                    case .violation(let topic, let payload, _):
                        if send(pub, topic, payload) { statistics.violationsPublished.add(1, ordering: .relaxed) }
                    case .diagnostic(let topic, let payload):
                        if send(pub, topic, payload) { statistics.diagnosticsPublished.add(1, ordering: .relaxed) }
                    }
                }
            }
            if let keeper { publishNotice(pub, keeper) }
            let now = WallClock.monotonicMilliseconds()
            if let keeper, retention.maxAgeMs != nil || retention.maxRows != nil, now - lastPrune > 60_000 {
                lastPrune = now
                if let pruned = keeper.prune(maxAgeMs: retention.maxAgeMs, maxRows: retention.maxRows) {
                    statistics.historyPruned.add(UInt64(pruned), ordering: .relaxed)
                }
            }
        }
    }

    /// Sends one message. The socket runs with ZMQ_XPUB_NODROP, so a full subscriber queue
    /// shows as EAGAIN instead of a silent drop: that is counted as a subscriber overflow,
    /// and the message goes out once more in lossy mode so that every subscriber that keeps
    /// up still gets it. libzmq then leaves the full subscriber out until it catches up, so
    /// the count is of overflows, not of each message it missed. The history has them all.
    private func send(_ pub: ZMQSocket, _ topic: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) -> Bool {
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

    /// Publishes `diag/-/history_unavailable` when violations were lost past the spool's bound (at most one a second).
    private func publishNotice(_ pub: ZMQSocket, _ keeper: HistoryKeeper) {
        guard let detail = keeper.takeUnavailableNotice() else { return }
        let body: [String: Any] = [
            "v": 1, "reason": "history_unavailable", "app": NSNull(), "session": NSNull(),
            "detail": detail, "observed": WallClock.milliseconds(),
        ]
        guard let payload = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) else { return }
        let topic = Array("diag/-/history_unavailable".utf8)
        let sent = topic.withUnsafeBytes { topic in payload.withUnsafeBytes { send(pub, topic, $0) } }
        if sent { statistics.diagnosticsPublished.add(1, ordering: .relaxed) }
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
