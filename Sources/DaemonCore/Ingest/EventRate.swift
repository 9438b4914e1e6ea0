/// Events per second over the last few seconds, sampled on the loop's tick.
struct EventRate {
    private var samples: [(time: Int64, count: UInt64)] = []
    private let span: Int64 = 5000

    /// Records the running total at monotonic time `now` (ms).
    mutating func sample(total: UInt64, now: Int64) {
        samples.append((now, total))
        while let first = samples.first, now - first.time > span, samples.count > 2 { samples.removeFirst() }
    }

    /// The rate between the oldest and newest sample.
    var perSecond: Double {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return 0 }
        return Double(last.count - first.count) * 1000 / Double(last.time - first.time)
    }
}
