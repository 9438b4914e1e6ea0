/// The ceiling: what libzmq itself moves on this machine, PUB→SUB over loopback TCP,
/// with exactly the messages the daemon gets and nothing done with them. The sender is
/// the same `EventSender` the daemon runs use; the receiver has the daemon's socket options.
struct CeilingBenchmark {
    /// The measured messages.
    let messages: MessageSet
    /// The warm-up message(s).
    let warmup: MessageSet

    /// One run.
    func run() throws(BenchError) -> ThroughputSample {
        let sink = SinkReceiver()
        let endpoint = try sink.start()
        let sender = EventSender(endpoint: endpoint, warmup: warmup, messages: messages)
        do {
            try sender.start()
        } catch {
            _ = sink.finish(timeoutMs: 0)
            throw error
        }
        defer { sender.finish() }
        let deadline = MonotonicClock.nanoseconds() + 10_000_000_000
        while sink.messagesReceived < 1 {
            if MonotonicClock.nanoseconds() > deadline {
                _ = sink.finish(timeoutMs: 0)
                throw BenchError("the ceiling's receiver got no warm-up message within 10 s")
            }
            MonotonicClock.sleep(milliseconds: 1)
        }
        let cpuBefore = CPUTimes.now()
        sender.go()
        let warmupMessages = sender.currentReport.warmupMessages
        sink.expect(messages: warmupMessages + messages.count)
        let received = sink.finish(timeoutMs: 120_000)
        let cpu = cpuBefore.used(until: CPUTimes.now())
        let sent = sender.currentReport
        if let failure = received.failure ?? sent.failure { throw BenchError("ceiling run: \(failure)") }
        guard received.last > 0 else {
            throw BenchError(
                "ceiling run: \(received.messages - warmupMessages) of \(messages.count) messages arrived within 120 s"
            )
        }
        return ThroughputSample(
            events: messages.events,
            messages: messages.count,
            bytes: messages.bytes.count,
            seconds: MonotonicClock.seconds(from: sent.firstSend, to: received.last),
            details: [("bench_cpu_ms", Int(cpu.bench * 1000)), ("others_cpu_ms", Int(cpu.others * 1000))]
        )
    }
}
