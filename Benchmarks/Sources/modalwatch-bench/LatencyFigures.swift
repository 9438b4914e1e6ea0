/// What the Targets table takes from one latency run: its offered rate, p99, and the publishing
/// thread's CPU per violation stored meanwhile.
struct LatencyFigures {
    /// Offered events per second.
    var rate: Double
    /// p99 sent → violation received, ns.
    var p99: Double
    /// The publishing thread's CPU per stored violation, µs (nil: the thread was not found).
    var publishingMicroseconds: Double?
    /// Violations stored during the run.
    var violationsStored: Int
}
