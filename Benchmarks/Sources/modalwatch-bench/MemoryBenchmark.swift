import ControlProtocol

/// Resident memory per live idle session: a fresh daemon, one session to warm up,
/// its RSS; then `sessions - 1` more `session.start` events, paced so that no receive
/// queue builds up (queued messages would count as session memory); once `status` says
/// `sessions_live == sessions`, its RSS again. The difference over the new sessions.
struct MemoryBenchmark {
    /// What the run measured.
    struct Result: Sendable {
        /// Live sessions at the end.
        var sessions: Int
        /// RSS with the warm-up session, bytes.
        var before: Int
        /// RSS with every session, bytes.
        var after: Int
        /// Bytes per session.
        var perSession: Double
        /// Seconds from the first session sent to `sessions_live` reaching the count.
        var seconds: Double
        /// Counters from the daemon's status at the end.
        var details: [(String, Int)]
    }

    /// The daemon's executable.
    let executable: String
    /// Where its folders go.
    let folder: String
    /// Children to clean up.
    let registry: ChildRegistry
    /// Sessions to start.
    let sessions: Int
    /// Sessions started per second.
    let rate: Double
    /// The generator's seed.
    let seed: UInt32

    /// One run on a fresh daemon.
    func run() throws(BenchError) -> Result {
        let starts = BenchEvents.idleSessions(sessions, seed: seed)
        let batch = 50
        let messages = starts.messages(batch: batch)
        // The warm-up is the first session's start; sent again in the batch, it is a duplicate.
        let warmup = starts.messages(first: 1, batch: 1)
        let daemon = try DaemonProcess(executable: executable, folder: folder, registry: registry)
        // No graceful stop: it would write a snapshot of every session.
        defer { daemon.stopNow() }
        let client = StatusPoller(endpoint: daemon.control)
        try EndToEndBenchmark.checkModules(try client.status())
        let sender = EventSender(
            endpoint: daemon.events,
            warmup: warmup,
            messages: messages,
            pacing: .init(messagesPerSecond: rate / Double(batch), stampEvery: Int.max)
        )
        try sender.start()
        defer { sender.finish() }
        _ = try client.poll(intervalMs: 2, timeoutMs: 10_000, what: "the first session") { $0[.sessionsLive] >= 1 }
        MonotonicClock.sleep(milliseconds: 300)
        let before = try daemon.residentBytes()
        sender.go()
        let timeoutMs = max(60_000, Int(Double(sessions) / rate * 4000))
        let (_, end) = try client.poll(intervalMs: 20, timeoutMs: timeoutMs, what: "\(sessions) live sessions") {
            $0[.sessionsLive] >= sessions
        }
        let first = sender.currentReport.firstSend
        if let failure = sender.currentReport.failure { throw BenchError("memory run: \(failure)") }
        // Let the loop go idle, then read it.
        MonotonicClock.sleep(milliseconds: 500)
        let after = try daemon.residentBytes()
        let status = try client.status()
        var details: [(String, Int)] = []
        details +=
            ([.sessionsLive, .sessionsStarted, .sessionsEvicted, .duplicates, .eventsReceived, .eventsRejected]
            as [StatusCounter]).map { ($0.rawValue, status[$0]) }
        return Result(
            sessions: status[.sessionsLive],
            before: before,
            after: after,
            perSession: Double(after - before) / Double(max(1, sessions - 1)),
            seconds: MonotonicClock.seconds(from: first, to: end),
            details: details
        )
    }
}
