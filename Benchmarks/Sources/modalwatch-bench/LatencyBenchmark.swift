import ControlProtocol
import Foundation
import Histogram

/// Latency from event sent to violation received, at a fixed offered rate: a paced
/// sender sends single-event messages of the stream, every `probeEvery`-th one a probe
/// that triggers a violation at once; a subscriber on the daemon's `PUB` notes when
/// each probe's violation arrives. Both clocks are the bench's one monotonic clock.
struct LatencyBenchmark {
    /// What the run measured.
    struct Result: Sendable {
        /// Sent → received, ns.
        var latency: Histogram<UInt64>
        /// Intended send time → received, ns (corrected for a sender that fell behind).
        var corrected: Histogram<UInt64>
        /// Probes sent.
        var probes: Int
        /// Probe violations received.
        var received: Int
        /// The rate actually offered, events/s.
        var offeredRate: Double
        /// How far the sender fell behind its schedule at worst, ns.
        var maxSenderLag: UInt64
        /// Counters from the daemon's status at the end.
        var details: [(String, Int)]
        /// The publishing thread's CPU per violation stored during the run (from the first message
        /// sent until everything found is published), µs; nil when the thread was not found.
        var publishingMicrosecondsPerViolation: Double?
        /// Violations stored during the run.
        var violationsStored: Int
        /// The ingest thread's (`mw-ingest`) CPU seconds per wall second, from just before the
        /// first message sent until the last was sent; nil when the thread was not found.
        var ingestCPUPerSecond: Double?
        /// The checkpoint writer's (`mw-sessions`) CPU seconds per wall second over the same time.
        var checkpointCPUPerSecond: Double?
        /// The daemon's log (stdout and stderr), kept until the run's folder is removed.
        var daemonLog: String
    }

    /// The daemon's executable.
    let executable: String
    /// Where its folders go.
    let folder: String
    /// Children to clean up.
    let registry: ChildRegistry
    /// The stream whose events go between the probes.
    let stream: EventStream
    /// Offered events per second.
    let rate: Double
    /// How long to offer it.
    let seconds: Double
    /// One probe every this many messages.
    let probeEvery: Int
    /// `perf record` for the measured part, if wanted: arguments and the output file.
    var profile: (arguments: [String], output: String)?
    /// Sent once before the warm-up and not timed (the scaling runs: the sessions' starts).
    var prefill: MessageSet?
    /// Where to write each probe's times, if wanted (`--latency-trace`).
    var tracePath: String?
    /// The daemon's configuration file (`--config`), if any.
    var config: String?
    /// The daemon's `--log-level`.
    var logLevel = "notice"

    /// One run on a fresh daemon.
    func run() throws(BenchError) -> Result {
        let count = Int(rate * seconds)
        let messages = BenchEvents.latencyMessages(stream, count: count, probeEvery: probeEvery)
        let probes = count / probeEvery
        let daemon = try DaemonProcess(
            executable: executable,
            folder: folder,
            registry: registry,
            config: config,
            logLevel: logLevel
        )
        defer { daemon.stop() }
        let client = StatusPoller(endpoint: daemon.control)
        try EndToEndBenchmark.checkModules(try client.status())
        let receiver = ViolationReceiver(endpoint: daemon.publish, topic: BenchEvents.probeTopic, probes: probes)
        try receiver.start()
        var receiverFinished = false
        defer { if !receiverFinished { _ = receiver.finish() } }
        let sender = EventSender(
            endpoint: daemon.events,
            warmup: BenchEvents.warmupProbes(500),
            messages: messages,
            pacing: .init(messagesPerSecond: rate, stampEvery: probeEvery),
            prefill: prefill
        )
        try sender.start()
        defer { sender.finish() }
        // Both subscriptions are in place once a warm-up probe's violation comes back.
        let waitMs = 10_000 + (prefill?.events ?? 0) / 20
        let deadline = MonotonicClock.nanoseconds() + UInt64(waitMs) * 1_000_000
        while receiver.warmupsReceived < 1 {
            if MonotonicClock.nanoseconds() > deadline {
                throw BenchError(
                    "no warm-up violation came back within \(waitMs / 1000) s; status: \(StatusPoller.summary(try client.status()))"
                )
            }
            MonotonicClock.sleep(milliseconds: 2)
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
        let threadsBefore = (
            ingest: ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.ingest),
            checkpoint: ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.checkpoint),
            at: MonotonicClock.nanoseconds()
        )
        sender.go()
        // While it runs: how far the ingest and the publishing fall behind (status every 100 ms).
        var maxIngestBacklog = 0
        var maxPublishBacklog = 0
        var samples = 0
        let warmupEvents = sender.currentReport.warmupEvents
        while true {
            let report = sender.currentReport
            if report.lastSend != 0 || report.failure != nil { break }
            let status = try client.status()
            let due = min(
                count,
                Int(MonotonicClock.seconds(from: report.firstSend, to: MonotonicClock.nanoseconds()) * rate)
            )
            maxIngestBacklog = max(maxIngestBacklog, warmupEvents + due - status[.eventsReceived])
            maxPublishBacklog = max(
                maxPublishBacklog,
                status[.violationsFound] - status[.violationsPublished] - status[.messagesDropped]
            )
            samples += 1
            MonotonicClock.sleep(milliseconds: 100)
        }
        let sent = sender.waitSent()
        let threadsWall = MonotonicClock.seconds(from: threadsBefore.at, to: MonotonicClock.nanoseconds())
        let ingestCPU = threadsBefore.ingest.flatMap { before in
            ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.ingest).map { ($0 - before) / threadsWall }
        }
        let checkpointCPU = threadsBefore.checkpoint.flatMap { before in
            ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.checkpoint).map { ($0 - before) / threadsWall }
        }
        let cpu = cpuBefore.used(until: CPUTimes.now(daemon: daemon.pid))
        profiler?.stop()
        if let failure = sent.failure { throw BenchError("latency run: \(failure)") }
        // Every probe's violation; if the daemon fell behind, until it has published all it found.
        let total = warmupEvents + count
        _ = try client.poll(
            intervalMs: 50,
            timeoutMs: 120_000,
            what: "every event judged and every violation published"
        ) {
            $0[.eventsReceived] >= total
                && $0[.violationsPublished] + $0[.messagesDropped] + $0[.historyFailures] >= $0[.violationsFound]
        }
        let publishingAfter = ThreadCPU.seconds(pid: daemon.pid, name: ThreadCPU.publishing)
        let storedAfter = try client.status()[.violationsStored]
        let stored = storedAfter - storedBefore
        let publishing = publishingBefore.flatMap { before in
            publishingAfter.map { ($0 - before) * 1e6 / Double(max(1, stored)) }
        }
        let waitUntil = MonotonicClock.nanoseconds() + 1_000_000_000
        while receiver.probesReceived < probes && MonotonicClock.nanoseconds() < waitUntil {
            MonotonicClock.sleep(milliseconds: 5)
        }
        let arrived = receiver.finish()
        receiverFinished = true
        if let failure = arrived.failure { throw BenchError("latency run: \(failure)") }
        let status = try client.status()

        var latency = Histogram<UInt64>(
            lowestDiscernibleValue: 1,
            highestTrackableValue: 60_000_000_000,
            numberOfSignificantValueDigits: .three
        )
        var corrected = latency
        latency.autoResize = true
        corrected.autoResize = true
        for i in 0..<min(probes, sent.stamps.count) where arrived.arrivals[i] != 0 {
            let at = arrived.arrivals[i]
            _ = latency.record(at > sent.stamps[i] ? at - sent.stamps[i] : 0)
            _ = corrected.record(at > sent.intended[i] ? at - sent.intended[i] : 0)
        }
        if let tracePath { try writeTrace(to: tracePath, sent: sent, arrivals: arrived.arrivals, probes: probes) }
        var details: [(String, Int)] = []
        details +=
            ([
                .eventsReceived, .eventsJudged, .eventsRejected, .violationsFound, .violationsPublished,
                .messagesDropped,
            ] as [StatusCounter]).map { ($0.rawValue, status[$0]) }
        details.append(("warmup_events", sent.warmupEvents))
        details.append(("max_ingest_backlog_events", maxIngestBacklog))
        details.append(("max_publish_backlog_violations", maxPublishBacklog))
        details.append(("backlog_samples", samples))
        let wall = MonotonicClock.seconds(from: sent.firstSend, to: sent.lastSend)
        details.append(("daemon_cpu_ms", Int(cpu.daemon * 1000)))
        details.append(("bench_cpu_ms", Int(cpu.bench * 1000)))
        details.append(("others_cpu_ms", Int(cpu.others * 1000)))
        details.append(("wall_ms", Int(wall * 1000)))
        details.append(("violations_other", arrived.others))
        details.append(("violations_stored_in_run", stored))
        if let publishing { details.append(("publishing_thread_ns_per_stored_violation", Int(publishing * 1000))) }
        return Result(
            latency: latency,
            corrected: corrected,
            probes: probes,
            received: arrived.probes,
            offeredRate: Double(count) / MonotonicClock.seconds(from: sent.firstSend, to: sent.lastSend),
            maxSenderLag: sent.maxLag,
            details: details,
            publishingMicrosecondsPerViolation: publishing,
            violationsStored: stored,
            ingestCPUPerSecond: ingestCPU,
            checkpointCPUPerSecond: checkpointCPU,
            daemonLog: daemon.logPath
        )
    }

    /// One line a probe that came back: its intended send time (ms after the first send), how late
    /// the sender sent it, and its latency, both in ns. Stalls show as runs of high latencies.
    private func writeTrace(
        to path: String,
        sent: EventSender.Report,
        arrivals: [UInt64],
        probes: Int
    ) throws(BenchError) {
        var text = "# intended_ms\tsend_lag_ns\tlatency_ns\n"
        for i in 0..<min(probes, sent.stamps.count) where arrivals[i] != 0 {
            let intended = Double(sent.intended[i] &- sent.firstSend) / 1e6
            let lag = Int64(bitPattern: sent.stamps[i] &- sent.intended[i])
            let latency = Int64(bitPattern: arrivals[i] &- sent.stamps[i])
            text += "\(Figure.format(intended, 3))\t\(lag)\t\(latency)\n"
        }
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw BenchError("could not write the latency trace \(path): \(error)")
        }
    }
}
