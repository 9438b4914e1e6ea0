import ByteBasics
import Posix

/// The wall clock, in milliseconds since the Unix epoch.
public enum WallClock: Sendable {
    /// Now, in ms.
    @inline(__always)
    public static func milliseconds() -> Int64 { PosixClock.realtime.milliseconds() }

    /// A monotonic clock, in ms, for rates and timeouts.
    @inline(__always)
    public static func monotonicMilliseconds() -> Int64 { monotonicMicroseconds() / 1000 }

    /// A monotonic clock, in µs, for short spacings.
    @inline(__always)
    public static func monotonicMicroseconds() -> Int64 { PosixClock.monotonic.microseconds() }
}
