import SessionEngine

/// The daemon's wall clock, ms since the Unix epoch, which never steps forward while the daemon
/// runs: the wall clock read at start plus the time since boot elapsed since then, or the wall
/// clock itself when that is earlier (docs/spec-decisions.md, "The daemon's clock").
///
/// Everything that compares arrival times reads it: the `observed` of events, violations and
/// diagnostics, the idle release of sessions, the history's retention by age, and the ages in
/// control replies. So a forward step of the wall clock (by hand, NTP, a restored VM) neither
/// expires a live session nor deletes a stored row: it takes effect at the next start. A step
/// back takes effect at once (arrival times are then later than now, which only delays a release
/// or a deletion, by at most the step).
public struct DaemonClock: Sendable {
    private let source: any ClockSource
    private let wallAtStart: Int64
    private let bootAtStart: Int64

    /// The clock from now on, read from `source`.
    public init(source: any ClockSource = SystemClock()) {
        self.source = source
        wallAtStart = source.wallMilliseconds()
        bootAtStart = source.bootMilliseconds()
    }

    /// Now, ms since the Unix epoch.
    public func milliseconds() -> Int64 {
        let steady = wallAtStart.addingSaturated(source.bootMilliseconds().subtractingSaturated(bootAtStart))
        return min(source.wallMilliseconds(), steady)
    }
}
