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
    /// Extra figures of the run, by name (counters from the daemon's status).
    var details: [(String, Int)] = []

    /// Events per second.
    var eventsPerSecond: Double { seconds > 0 ? Double(events) / seconds : 0 }

    /// The sample with the median events per second (the lower middle one for an even count).
    static func median(_ samples: [ThroughputSample]) -> ThroughputSample? {
        let sorted = samples.sorted { $0.eventsPerSecond < $1.eventsPerSecond }
        return sorted.isEmpty ? nil : sorted[(sorted.count - 1) / 2]
    }
}
