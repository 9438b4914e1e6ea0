import DaemonCore
import Synchronization

/// The machine's clocks with offsets a test sets: `step(wall:)` moves only the wall clock (what
/// `date -s` or an NTP step does), `pass(ms)` moves both (time going by). The machine's own
/// clock is never touched.
final class SteppedClock: DaemonClock.Source {
    private let offsets = Mutex<(wall: Int64, boot: Int64)>((0, 0))
    private let machine = DaemonClock.MachineSource()

    func wallMilliseconds() -> Int64 { machine.wallMilliseconds() + offsets.withLock { $0.wall } }
    func bootMilliseconds() -> Int64 { machine.bootMilliseconds() + offsets.withLock { $0.boot } }

    /// The wall clock steps by `ms` (either way); the time since boot does not.
    func step(wall ms: Int64) { offsets.withLock { $0.wall += ms } }

    /// `ms` go by: both clocks move.
    func pass(_ ms: Int64) {
        offsets.withLock {
            $0.wall += ms
            $0.boot += ms
        }
    }
}
