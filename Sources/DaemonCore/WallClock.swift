import Glibc

/// The wall clock, in milliseconds since the Unix epoch.
public enum WallClock: Sendable {
    /// Now, in ms.
    @inline(__always)
    public static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// A monotonic clock, in ms, for rates and timeouts.
    @inline(__always)
    public static func monotonicMilliseconds() -> Int64 { monotonicMicroseconds() / 1000 }

    /// A monotonic clock, in µs, for short spacings.
    @inline(__always)
    public static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}
