import Glibc

/// The machine's clocks, as `ClockSource`.
public struct SystemClock: ClockSource {
    /// The machine's clocks.
    public init() {}

    /// `CLOCK_REALTIME`, ms.
    public func wallMilliseconds() -> Int64 { WallClock.milliseconds() }

    /// `CLOCK_BOOTTIME`, ms.
    public func bootMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
