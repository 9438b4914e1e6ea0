import Glibc

/// Signals taken in the program's own loop rather than by a handler: blocked in every
/// thread (block them before any thread starts, e.g. before a ZeroMQ context), then
/// collected with `sigtimedwait` when the loop wakes. No global state, no handler.
public struct BlockedSignals: Sendable {
    private var set = sigset_t()

    /// Blocks `signals` for this thread and the threads it starts from now on.
    public init(_ signals: [Int32]) {
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// The signals that arrived since the last call, each taken once, in order.
    public mutating func take() -> [Int32] {
        var taken: [Int32] = []
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        while true {
            let signal = sigtimedwait(&set, nil, &zero)
            if signal <= 0 { break }
            taken.append(signal)
        }
        return taken
    }
}
