import ControlProtocol

/// The daemon end to end: a real `modalwatchd` child with the built-in defaults and all
/// four modules; the bench sends the messages over loopback TCP and polls `status`
/// until every event is received and judged. From the first measured message sent to
/// the status reply that counts the last one.
struct EndToEndBenchmark {
    /// The daemon's executable.
    let executable: String
    /// Where its folders go.
    let folder: String
    /// Children to clean up.
    let registry: ChildRegistry
    /// The measured messages.
    let messages: MessageSet
    /// How often to ask for status while the run goes on.
    var pollIntervalMs = 50
    /// `perf record` for the measured part, if wanted: arguments and the output file.
    var profile: (arguments: [String], output: String)?
    /// Sent once before the warm-up and not timed (the scaling runs: the sessions' starts).
    var prefill: MessageSet?

    /// The rule modules every daemon run must have loaded.
    static let modules = ["overuse", "modality", "alert-content", "action-sheet"]

    /// One run on a fresh daemon.
    func run() throws(BenchError) -> ThroughputSample {
        let daemon = try DaemonProcess(executable: executable, folder: folder, registry: registry)
        defer { daemon.stop() }
        let client = StatusPoller(endpoint: daemon.control)
        try Self.checkModules(try client.status())
        let sender = EventSender(
            endpoint: daemon.events,
            warmup: BenchEvents.warmupStart(),
            messages: messages,
            prefill: prefill
        )
        try sender.start()
        defer { sender.finish() }
        let prefilled = prefill?.events ?? 0
        _ = try client.poll(
            intervalMs: prefilled > 0 ? 20 : 2,
            timeoutMs: 10_000 + prefilled / 20,
            what: "the warm-up event"
        ) {
            $0[.eventsReceived] >= prefilled + 1
        }
        let profiler = try profile.map { profile throws(BenchError) in
            try ProfilerProcess(
                target: daemon.pid,
                output: profile.output,
                arguments: profile.arguments,
                registry: registry
            )
        }
        let cpuBefore = CPUTimes.now(daemon: daemon.pid)
        let storedBefore = try client.status()[.violationsStored]
        let publishingBefore = ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.publishing)
        let ingestBefore = ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.ingest)
        sender.go()
        let warmupEvents = sender.currentReport.warmupEvents
        let total = warmupEvents + messages.events
        let timeoutMs = max(60_000, messages.events / 20)
        let (reply, end) = try client.pollAdaptively(
            total: total,
            maxIntervalMs: pollIntervalMs,
            timeoutMs: timeoutMs,
            what: "\(total) events received",
            counter: \.[.eventsReceived]
        )
        let cpu = cpuBefore.used(until: CPUTimes.now(daemon: daemon.pid))
        let ingestAfter = ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.ingest)
        let publishingAtEnd = ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.publishing)
        profiler?.stop()
        let sent = sender.currentReport
        if let failure = sent.failure { throw BenchError("end-to-end run: \(failure)") }
        let seconds = MonotonicClock.seconds(from: sent.firstSend, to: end)
        // Not timed: until every violation found is stored and published.
        let (drained, drainEnd) = try client.poll(
            intervalMs: pollIntervalMs,
            timeoutMs: 120_000,
            what: "violations published"
        ) {
            $0[.violationsPublished] + $0[.messagesDropped] + $0[.historyFailures] >= $0[.violationsFound]
        }
        let publishingAfter = ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.publishing)
        let stored = drained[.violationsStored] - storedBefore
        var details: [(String, Int)] = [("warmup_events", warmupEvents)]
        details.append(("violations_stored_in_run", stored))
        if let publishingBefore, let publishingAfter {
            details.append(
                (
                    "publishing_thread_ns_per_stored_violation",
                    Int((publishingAfter - publishingBefore) * 1e9 / Double(max(1, stored)))
                )
            )
        }
        details +=
            ([
                .eventsReceived, .eventsJudged, .eventsRejected, .duplicates, .sessionsLive, .violationsFound,
                .reportsSuppressed,
            ] as [StatusCounter]).map { ($0.rawValue, reply[$0]) }
        details += ([.violationsPublished, .messagesDropped] as [StatusCounter]).map { ($0.rawValue, drained[$0]) }
        details.append(("published_after_ms", Int(MonotonicClock.seconds(from: sent.firstSend, to: drainEnd) * 1000)))
        details.append(("ready_us", Int(daemon.readyNanoseconds / 1000)))
        details.append(("status_polls", client.requests))
        details.append(("daemon_cpu_ms", Int(cpu.daemon * 1000)))
        details.append(("bench_cpu_ms", Int(cpu.bench * 1000)))
        details.append(("others_cpu_ms", Int(cpu.others * 1000)))
        details.append(("daemon_cpu_ns_per_event", Int(cpu.daemon * 1e9 / Double(max(1, messages.events)))))
        // Each thread's CPU over the timed part, in thousandths of the part's wall time: a thread at
        // 1,000 had a core to itself all along, and bounds the rate.
        let timed = max(seconds, 1e-9)
        if let ingestBefore, let ingestAfter {
            details.append(("ingest_thread_busy_permille", Int((ingestAfter - ingestBefore) / timed * 1000)))
        }
        if let publishingBefore, let publishingAtEnd {
            details.append(
                ("publishing_thread_busy_permille", Int((publishingAtEnd - publishingBefore) / timed * 1000))
            )
        }
        return ThroughputSample(
            events: messages.events,
            messages: messages.count,
            bytes: messages.bytes.count,
            seconds: seconds,
            publishedSeconds: MonotonicClock.seconds(from: sent.firstSend, to: drainEnd),
            details: details
        )
    }

    /// Throws unless the status reply names every built-in module.
    static func checkModules(_ status: StatusReply) throws(BenchError) {
        let loaded = Set(status.modules.map(\.name))
        let missing = modules.filter { !loaded.contains($0) }
        if !missing.isEmpty {
            throw BenchError(
                "modalwatchd did not load the modules \(missing.joined(separator: ", ")); build them with `swift build -c release` (loaded: \(loaded.sorted().joined(separator: ", ")); failures: \(status.moduleFailures.joined(separator: "; ")))"
            )
        }
    }
}
