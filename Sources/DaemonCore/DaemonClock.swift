import ByteBasics
import Foundation
import Glibc
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
///
/// Rates, timeouts and spacings read the monotonic clock instead (`PosixClock.monotonic`).
public struct DaemonClock: Sendable {
    /// Where the daemon's clock reads the time: the wall clock, which may step either way (an
    /// operator, NTP, a VM restored), and the time since boot, which never steps. Passed in
    /// (`IngestLoop.Settings.clock`), so that a test steps a wall clock of its own, never the
    /// machine's.
    public protocol Source: Sendable {
        /// The wall clock (`CLOCK_REALTIME`), ms since the Unix epoch.
        func wallMilliseconds() -> Int64
        /// The time since boot (`CLOCK_BOOTTIME`: counts a suspend, never steps), ms.
        func bootMilliseconds() -> Int64
    }

    /// The machine's clocks, as a `Source`.
    public struct MachineSource: Source {
        /// The machine's clocks.
        public init() {}

        /// `CLOCK_REALTIME`, ms.
        public func wallMilliseconds() -> Int64 { PosixClock.realtime.milliseconds() }

        /// `CLOCK_BOOTTIME`, ms.
        public func bootMilliseconds() -> Int64 { PosixClock.boottime.milliseconds() }
    }

    private let source: any Source
    private let wallAtStart: Int64
    private let bootAtStart: Int64

    /// The clock from now on, read from `source`.
    public init(source: any Source = MachineSource()) {
        self.source = source
        wallAtStart = source.wallMilliseconds()
        bootAtStart = source.bootMilliseconds()
    }

    /// Now, ms since the Unix epoch.
    public func milliseconds() -> Int64 {
        let steady = wallAtStart.addingSaturated(source.bootMilliseconds().subtractingSaturated(bootAtStart))
        return min(source.wallMilliseconds(), steady)
    }

    /// Now in UTC to the second, `20261124T063000Z`: the time in the name of a file set aside.
    func utcStamp() -> String {
        var seconds = time_t(milliseconds() / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ",
            parts.tm_year + 1900,
            parts.tm_mon + 1,
            parts.tm_mday,
            parts.tm_hour,
            parts.tm_min,
            parts.tm_sec
        )
    }
}
