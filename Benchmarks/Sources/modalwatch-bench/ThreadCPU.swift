import Foundation

/// The CPU time of one named thread of a process, from /proc: the first field of
/// `/proc/PID/task/TID/schedstat` (nanoseconds on a CPU, exact, not in clock ticks), of the thread
/// whose `comm` is `name` (the kernel keeps 15 bytes of a thread's name), the first started.
struct ThreadCPU {
    /// The daemon's publishing thread (`PublishingThread.kernelThreadName`).
    static let publishing = "mw-publish"
    /// The daemon's ingest thread (`IngestLoop.kernelThreadName`).
    static let ingest = "mw-ingest"
    /// The daemon's session checkpoint writer (`CheckpointWriter.kernelThreadName`).
    static let checkpoint = "mw-sessions"

    /// Seconds thread `name` of `pid` has run, or nil when it has no such thread.
    static func seconds(pid: Int32, name: String) -> Double? {
        let tasks = "/proc/\(pid)/task"
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        // The lowest id of that name: a thread the named one starts (the history's checkpointer) inherits its name.
        for id in ids.sorted(by: { (Int($0) ?? .max) < (Int($1) ?? .max) }) {
            guard let comm = try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                let stat = try? String(contentsOfFile: "\(tasks)/\(id)/schedstat", encoding: .utf8),
                let first = stat.split(separator: " ").first, let nanoseconds = Double(first)
            else { continue }
            return nanoseconds / 1e9
        }
        return nil
    }
}
