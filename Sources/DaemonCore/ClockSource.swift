/// Where the daemon reads the time: the wall clock, which may step either way (an operator,
/// NTP, a VM restored), and the time since boot, which never steps. Passed in
/// (`IngestLoop.Settings.clock`), so that a test steps a wall clock of its own, never the machine's.
public protocol ClockSource: Sendable {
    /// The wall clock (`CLOCK_REALTIME`), ms since the Unix epoch.
    func wallMilliseconds() -> Int64
    /// The time since boot (`CLOCK_BOOTTIME`: counts a suspend, never steps), ms.
    func bootMilliseconds() -> Int64
}
