/// One throughput run: events moved, and how long it took.
struct ThroughputSample: Sendable {
    /// Events measured (warm-up excluded).
    var events: Int
    /// Messages measured.
    var messages: Int
    /// Payload bytes measured.
    var bytes: Int
    /// Seconds from the first measured message sent to the last counted.
    var seconds: Double
    /// Seconds from the first measured message sent until every violation found was stored
    /// and published (daemon runs only).
    var publishedSeconds: Double?
    /// Extra figures of the run, by name (counters from the daemon's status).
    var details: [(String, Int)] = []

    /// Events per second.
    var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

    /// Events per second counted until every violation was stored and published.
    var publishedEventsPerSecond: Double? { publishedSeconds.map { $0 > 0 ? Double(events) / $0 : 0 } }

    /// The sample with the median events per second (the lower middle one for an even count).
    static func median(_ samples: [ThroughputSample]) -> ThroughputSample? {
        let sorted = samples.sorted { $0.eventsPerSecond < $1.eventsPerSecond }
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }
}
