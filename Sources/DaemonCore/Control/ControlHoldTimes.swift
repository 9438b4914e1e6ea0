import ByteBasics
import Glibc

/// How long control requests held the ingest thread, one turn at a time: the control thread
/// parses, reads the history, encodes and sends; the ingest thread spends on a request only
/// its turns of engine work (`ControlHandler`: one per job, or one per slice of a `sessions`
/// scan). The ingest thread owns it; `status` reports the longest turn so far and the request
/// it was for (the target: no control request holds ingest for more than 1 ms).
struct ControlHoldTimes {
    /// The longest hold so far, in microseconds.
    private(set) var maxMicros: Int64 = 0
    /// The request of the longest hold: its `cmd`, or nil before the first request.
    private(set) var maxRequest: String?
    /// The longest hold of each request (`cmd`), in microseconds.
    private(set) var maxByRequest: [String: Int64] = [:]
    /// The longest hold so far as CPU time of the ingest thread, in microseconds.
    private(set) var maxCPUMicros: Int64 = 0
    /// The longest CPU time of each request (`cmd`), in microseconds.
    private(set) var maxCPUByRequest: [String: Int64] = [:]
    /// The CPU time of the last turn, in microseconds.
    private(set) var lastCPUMicros: Int64 = 0
    private var started: Int64 = 0
    private var startedCPU: Int64 = 0

    /// Notes that a turn of work on a request starts.
    mutating func begin() {
        started = PosixClock.monotonic.microseconds()
        startedCPU = Self.threadCPUMicroseconds()
    }

    /// Notes that a turn of work on `command` (the request's `cmd`) ended; returns the hold in microseconds.
    @discardableResult
    mutating func end(command: String) -> Int64 {
        let held = PosixClock.monotonic.microseconds() - started
        let cpu = Self.threadCPUMicroseconds() - startedCPU
        if held > maxMicros || maxRequest == nil {
            maxMicros = max(held, maxMicros)
            maxRequest = command
        }
        // Bounded: only the commands the protocol knows get an entry of their own.
        let key = Self.commands.contains(command) ? command : "?"
        maxByRequest[key] = max(maxByRequest[key] ?? 0, held)
        lastCPUMicros = cpu
        maxCPUMicros = max(maxCPUMicros, cpu)
        maxCPUByRequest[key] = max(maxCPUByRequest[key] ?? 0, cpu)
        return held
    }

    /// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), in microseconds.
    private static func threadCPUMicroseconds() -> Int64 { PosixClock.threadCPU.microseconds() }

    /// The commands the ingest thread works on (`violations` never reaches it).
    private static let commands: Set<String> = ["status", "sessions", "session", "rules", "reload"]
}
