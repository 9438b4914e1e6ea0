#if canImport(Glibc)
public import Glibc
#elseif canImport(Darwin)
public import Darwin
#endif

/// The clocks of `clock_gettime`, read in one place for every module (the daemon's, the CLI's, the
/// control and client libraries'). A read cannot fail for these clocks and a valid pointer, so it
/// returns the time, not an error.
///
/// `.monotonic` is the clock for rates, timeouts and spacings (`PosixClock.monotonic.milliseconds()`,
/// `.microseconds()`), and `.threadCPU` the one for CPU time. The daemon's wall clock is
/// `DaemonClock` (DaemonCore), whose machine source is what reads `.realtime` and `.boottime`.
public enum PosixClock: Sendable {
    /// `CLOCK_REALTIME`: the wall clock, since the Unix epoch (steps when the clock is set).
    case realtime
    /// `CLOCK_MONOTONIC`: for rates, timeouts and spacings (does not count suspend).
    case monotonic
    /// `CLOCK_BOOTTIME`: monotonic, counting time suspended (on Darwin, whose `CLOCK_MONOTONIC`
    /// counts it, that clock).
    case boottime
    /// `CLOCK_THREAD_CPUTIME_ID`: the CPU time of the calling thread.
    case threadCPU

    /// The clock's `clockid_t`.
    @inlinable
    public var id: clockid_t {
        switch self {
        case .realtime: CLOCK_REALTIME
        case .monotonic: CLOCK_MONOTONIC
        #if canImport(Glibc)
        case .boottime: CLOCK_BOOTTIME
        #else
        case .boottime: CLOCK_MONOTONIC
        #endif
        case .threadCPU: CLOCK_THREAD_CPUTIME_ID
        }
    }

    /// The clock's time as `clock_gettime` gives it.
    @inlinable @inline(__always)
    public func now() -> timespec {
        var now = timespec()
        clock_gettime(id, &now)
        return now
    }

    /// Whole seconds.
    @inlinable @inline(__always)
    public func seconds() -> Int64 { Int64(now().tv_sec) }

    /// Milliseconds.
    @inlinable @inline(__always)
    public func milliseconds() -> Int64 {
        let now = now()
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Microseconds.
    @inlinable @inline(__always)
    public func microseconds() -> Int64 {
        let now = now()
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    /// Seconds, with the nanoseconds as the fraction.
    @inlinable @inline(__always)
    public func fractionalSeconds() -> Double {
        let now = now()
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
