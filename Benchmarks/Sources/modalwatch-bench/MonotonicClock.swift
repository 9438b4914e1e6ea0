import Glibc

/// `CLOCK_MONOTONIC` in nanoseconds: one clock for every thread of the bench.
enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }

    /// Sleeps until `deadline` (nanoseconds on this clock).
    static func sleep(until deadline: UInt64) {
        var when = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, nil) == EINTR {}
    }

    /// Sleeps for `milliseconds`.
    static func sleep(milliseconds: Int) {
        sleep(until: nanoseconds() + UInt64(milliseconds) * 1_000_000)
    }

    /// Seconds between two readings.
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1e9
    }
}
