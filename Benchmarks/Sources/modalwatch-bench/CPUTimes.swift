import Foundation
import Glibc

/// CPU time used, from /proc: the whole machine's busy time, the bench's and a
/// daemon's. Taken before and after a measurement, it says how much of the machine
/// others (e.g. compilers of other work) used meanwhile, and what the daemon cost per
/// event whatever the contention.
struct CPUTimes {
    /// Busy seconds of all CPUs together since boot (everything but idle and iowait).
    var machineBusy: Double
    /// This process's user + system seconds.
    var bench: Double
    /// The daemon's user + system seconds (0 without one).
    var daemon: Double

    /// Now, for `daemon` (a pid) if given.
    static func now(daemon: pid_t? = nil) -> CPUTimes {
        CPUTimes(
            machineBusy: machineBusySeconds(),
            bench: processSeconds("self"),
            daemon: daemon.map { processSeconds("\($0)") } ?? 0
        )
    }

    /// What was used between `self` and `later`: (daemon, bench, others) seconds.
    func used(until later: CPUTimes) -> (daemon: Double, bench: Double, others: Double) {
        let daemon = later.daemon - self.daemon
        let bench = later.bench - self.bench
        let others = max(0, (later.machineBusy - machineBusy) - daemon - bench)
        return (daemon, bench, others)
    }

    private static let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))

    private static func machineBusySeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return 0 }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 5 else { return 0 }
        // user nice system idle iowait irq softirq steal ...; guest time is already in user.
        let busy = values.prefix(8).enumerated().filter { $0.offset != 3 && $0.offset != 4 }.map(\.element).reduce(0, +)
        return busy / ticks
    }

    private static func processSeconds(_ pid: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / ticks
    }
}
