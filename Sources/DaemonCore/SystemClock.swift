import ByteBasics
import Posix

/// The machine's clocks, as `ClockSource`.
public struct SystemClock: ClockSource {
    /// The machine's clocks.
    public init() {}

    /// `CLOCK_REALTIME`, ms.
    public func wallMilliseconds() -> Int64 { WallClock.milliseconds() }

    /// `CLOCK_BOOTTIME`, ms.
    public func bootMilliseconds() -> Int64 { PosixClock.boottime.milliseconds() }
}
