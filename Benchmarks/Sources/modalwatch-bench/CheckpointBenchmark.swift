import ControlProtocol
import Foundation
import Glibc

/// What the session checkpoints cost at many live idle sessions, on daemons filled as the restart
/// run fills them (`RestartBenchmark.fill`), each with a configuration file of its own
/// (`checkpoint_interval`):
///
/// - `frequent` (`checkpoint_interval: 1s`, log at debug): from the first whole checkpoint of
///   every session on, the checkpoint file is watched (`stat` every 2 ms; a new inode with a new
///   header's time is a walk's rename) for `windowSeconds` and until the next rename, so that the
///   window holds whole walks: each walk's time from its header's time (when the ingest thread
///   began it, wall clock) to its rename seen, the file's bytes, the daemon's own `took_ms`
///   (`wrote a session checkpoint`), and the CPU seconds per wall second of the ingest thread
///   (`mw-ingest`: the walk's slices) and of the writer (`mw-sessions`: encoding, writing, syncing).
///   Then SIGKILL (no graceful stop, which would write a checkpoint of its own) and a second daemon
///   on the same state folder: start → READY (sent after the restore) and the restore's `took_ms`
///   from its log line.
/// - `rare` (`checkpoint_interval: 1h`): no walk begins in the run; the same threads' CPU per
///   second over `windowSeconds`, the idle baseline.
struct CheckpointBenchmark {
    /// One walk, as the bench saw its file.
    struct Walk: Sendable {
        /// The header's time: when the walk began (wall-clock ms).
        var writtenAtMs: Int64
        /// From the header's time to the rename seen (wall clock), ms.
        var endToEndMs: Double
        /// The file's bytes.
        var bytes: Int
        /// Sessions in its end frame.
        var sessions: Int
    }

    /// One daemon's idle run.
    struct Idle: Sendable {
        /// Live sessions once filled (the warm-up's one more than asked).
        var sessions: Int
        /// Seconds to fill it.
        var fillSeconds: Double
        /// The walks whose rename was seen in the window (none at 1h), the one that opened it first.
        var walks: [Walk]
        /// The window's wall seconds.
        var windowSeconds: Double
        /// `mw-ingest`'s CPU seconds per wall second over the window (nil: no such thread).
        var ingestCPUPerSecond: Double?
        /// `mw-sessions`'s CPU seconds per wall second over the window (nil: no such thread).
        var checkpointCPUPerSecond: Double?
        /// The daemon's own `took_ms` of each whole checkpoint of every session (debug log).
        var loggedTookMs: [Int]
        /// CPU seconds the daemon, the bench and everything else used over the window.
        var cpu: (daemon: Double, bench: Double, others: Double)

        /// Walks that ended in the window after the one that opened it.
        var walksInWindow: Int { max(0, walks.count - 1) }
    }

    /// The second daemon's start on the first's state folder, after a SIGKILL.
    struct Restore: Sendable {
        /// Sessions in the newest whole checkpoint when the first daemon was killed.
        var checkpointSessions: Int
        /// From `posix_spawn` to READY=1, seconds.
        var readySeconds: Double
        /// `took_ms` of `restored sessions from the newest checkpoint` (nil: no such line).
        var tookMs: Int?
        /// `sessions` of that line.
        var loggedSessions: Int?
        /// `sessions_live` once READY.
        var sessionsLive: Int
    }

    /// The latency runs (`LatencyBenchmark`, prefilled with the sessions) at one interval, one
    /// entry a run.
    struct Loaded: Sendable {
        /// p50 sent → violation received, ns.
        var p50: [Double] = []
        /// p99 sent → violation received, ns.
        var p99: [Double] = []
        /// p99.9 sent → violation received, ns.
        var p99_9: [Double] = []
        /// `mw-ingest`'s CPU seconds per wall second while the stream was sent.
        var ingestCPUPerSecond: [Double] = []
        /// `mw-sessions`'s CPU seconds per wall second meanwhile.
        var checkpointCPUPerSecond: [Double] = []
        /// Probes sent, over all runs.
        var probes = 0
        /// Probe violations received, over all runs.
        var received = 0
        /// The rates offered, events/s.
        var offeredRate: [Double] = []
        /// CPU ms everything but the daemon and the bench used while the stream was sent (the contention).
        var othersCPUMs: [Int] = []
        /// The ingest's largest backlog seen (events due and not yet received).
        var maxIngestBacklog: [Int] = []
        /// The daemon's own `took_ms` of each whole checkpoint of every session it wrote (debug log),
        /// over all runs: walks under the stream, and those of the warm-up between the prefill and it.
        var walksTookMs: [Int] = []

        /// The median of `values` (nil when empty).
        static func median(_ values: [Double]) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            return sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// Everything measured at one session count.
    struct Result: Sendable {
        /// Idle sessions asked for.
        var requested: Int
        /// At `checkpoint_interval: 1s`.
        var frequent: Idle
        /// At `checkpoint_interval: 1h`.
        var rare: Idle
        /// The second daemon after the SIGKILL of the `frequent` one.
        var restore: Restore
        /// The latency runs at 1s (nil: not made or failed).
        var loadedFrequent: Loaded?
        /// The latency runs at 1h (nil: not made or failed).
        var loadedRare: Loaded?

        /// The walks' slices: `mw-ingest`'s CPU per second at 1s less that at 1h, idle.
        var slicesCPUPerSecond: Double? {
            guard let frequent = frequent.ingestCPUPerSecond, let rare = rare.ingestCPUPerSecond else { return nil }
            return frequent - rare
        }

        /// The median p99 at 1s less the median p99 at 1h, ns.
        var p99Added: Double? {
            guard let frequent = loadedFrequent.flatMap({ Loaded.median($0.p99) }),
                let rare = loadedRare.flatMap({ Loaded.median($0.p99) })
            else { return nil }
            return frequent - rare
        }

        /// The checkpoints' share of the ingest thread's CPU under the stream: `mw-ingest`'s median
        /// CPU per second at 1s less that at 1h, over that at 1s.
        var ingestShare: Double? {
            guard let frequent = loadedFrequent.flatMap({ Loaded.median($0.ingestCPUPerSecond) }),
                let rare = loadedRare.flatMap({ Loaded.median($0.ingestCPUPerSecond) }), frequent > 0
            else { return nil }
            return (frequent - rare) / frequent
        }

        /// The slices' CPU per second at their idle pace over `mw-ingest`'s median CPU per second under
        /// the stream at 1s: the share if the walks went on under the stream as fast as when idle.
        var idleSlicesShare: Double? {
            guard let slices = slicesCPUPerSecond,
                let loaded = loadedFrequent.flatMap({ Loaded.median($0.ingestCPUPerSecond) }),
                loaded > 0
            else { return nil }
            return slices / loaded
        }
    }

    /// The daemon's executable.
    let executable: String
    /// Where its folders go.
    let folder: String
    /// Children to clean up.
    let registry: ChildRegistry
    /// Idle sessions to fill each daemon with.
    let sessions: Int
    /// The generator's seed.
    let seed: UInt32
    /// The least wall seconds each window lasts.
    let windowSeconds: Double

    /// The log line of a checkpoint written while the daemon runs (`CheckpointWriter`, debug).
    static let writtenLine = "wrote a session checkpoint"
    /// The log line of the restore at the start (`IngestLoop`, notice).
    static let restoredLine = "restored sessions from the newest checkpoint"

    /// A configuration file in `folder` that sets `checkpoint_interval` to `interval` (`1s`, `1h`).
    static func configFile(in folder: String, interval: String) throws(BenchError) -> String {
        let path = folder + "/checkpoint-\(interval).yaml"
        guard FileManager.default.createFile(atPath: path, contents: Data("checkpoint_interval: \(interval)\n".utf8))
        else {
            throw BenchError("cannot write \(path)")
        }
        return path
    }

    /// The `frequent` run on a daemon with `config` (a `checkpoint_interval: 1s`), then its restore.
    func frequent(config: String) throws(BenchError) -> (Idle, Restore) {
        let daemon = try DaemonProcess(
            executable: executable,
            folder: folder,
            registry: registry,
            config: config,
            logLevel: "debug"
        )
        defer { daemon.stopNow() }
        let (filled, fillSeconds) = try RestartBenchmark.fill(daemon, sessions: sessions, seed: seed)
        let live = filled[.sessionsLive]
        let path = daemon.stateDirectory + "/" + RestartBenchmark.snapshotFileName
        var watch = FileWatch(path: path)
        // The window opens at the rename of the first whole checkpoint of every session seen live.
        let waitMs = 60_000 + sessions / 20
        var opening: Walk?
        while opening == nil {
            opening = try watch.next(timeoutMs: waitMs, what: "a checkpoint of \(live) sessions").flatMap {
                $0.sessions >= live ? $0 : nil
            }
        }
        let cpuBefore = CPUTimes.now(daemon: daemon.pid)
        let before = threadSeconds(daemon.pid)
        var walks = [opening!]
        let opened = MonotonicClock.nanoseconds()
        let closeAfter = opened + UInt64(windowSeconds * 1e9)
        while true {
            let walk = try watch.next(timeoutMs: waitMs, what: "the next checkpoint")
            guard let walk else { continue }
            walks.append(walk)
            if MonotonicClock.nanoseconds() >= closeAfter { break }
        }
        let closed = MonotonicClock.nanoseconds()
        let after = threadSeconds(daemon.pid)
        let cpu = cpuBefore.used(until: CPUTimes.now(daemon: daemon.pid))
        let window = MonotonicClock.seconds(from: opened, to: closed)
        let logged = Self.walksTookMs(daemon.logLines(containing: Self.writtenLine), sessions: live)
        let idle = Idle(
            sessions: live,
            fillSeconds: fillSeconds,
            walks: walks,
            windowSeconds: window,
            ingestCPUPerSecond: perSecond(before.ingest, after.ingest, window),
            checkpointCPUPerSecond: perSecond(before.checkpoint, after.checkpoint, window),
            loggedTookMs: logged,
            cpu: cpu
        )

        let newest = FileWatch.read(path)?.sessions ?? 0
        daemon.stopNow()
        let second = try DaemonProcess(
            executable: executable,
            folder: folder,
            registry: registry,
            readyTimeoutMs: 120_000,
            stateDirectory: daemon.stateDirectory,
            config: config
        )
        defer { second.stopNow() }
        let restoredLive = try StatusPoller(endpoint: second.control).status()[.sessionsLive]
        let line = second.logLines(containing: Self.restoredLine).last
        let restore = Restore(
            checkpointSessions: newest,
            readySeconds: Double(second.readyNanoseconds) / 1e9,
            tookMs: line.flatMap { Self.field("took_ms", in: $0) },
            loggedSessions: line.flatMap { Self.field("sessions", in: $0) },
            sessionsLive: restoredLive
        )
        return (idle, restore)
    }

    /// The `rare` run on a daemon with `config` (a `checkpoint_interval: 1h`): the idle baseline.
    func rare(config: String) throws(BenchError) -> Idle {
        let daemon = try DaemonProcess(executable: executable, folder: folder, registry: registry, config: config)
        defer { daemon.stopNow() }
        let (filled, fillSeconds) = try RestartBenchmark.fill(daemon, sessions: sessions, seed: seed)
        let cpuBefore = CPUTimes.now(daemon: daemon.pid)
        let before = threadSeconds(daemon.pid)
        let opened = MonotonicClock.nanoseconds()
        MonotonicClock.sleep(until: opened + UInt64(windowSeconds * 1e9))
        let closed = MonotonicClock.nanoseconds()
        let after = threadSeconds(daemon.pid)
        let cpu = cpuBefore.used(until: CPUTimes.now(daemon: daemon.pid))
        let window = MonotonicClock.seconds(from: opened, to: closed)
        return Idle(
            sessions: filled[.sessionsLive],
            fillSeconds: fillSeconds,
            walks: [],
            windowSeconds: window,
            ingestCPUPerSecond: perSecond(before.ingest, after.ingest, window),
            checkpointCPUPerSecond: perSecond(before.checkpoint, after.checkpoint, window),
            loggedTookMs: [],
            cpu: cpu
        )
    }

    private func threadSeconds(_ pid: pid_t) -> (ingest: Double?, checkpoint: Double?) {
        (ThreadCPU.seconds(pid: pid, name: ThreadCPU.ingest), ThreadCPU.seconds(pid: pid, name: ThreadCPU.checkpoint))
    }

    private func perSecond(_ before: Double?, _ after: Double?, _ wall: Double) -> Double? {
        guard let before, let after, wall > 0 else { return nil }
        return (after - before) / wall
    }

    /// `took_ms` of each `wrote a session checkpoint` line of at least `sessions` sessions.
    static func walksTookMs(_ lines: [Substring], sessions: Int) -> [Int] {
        lines.compactMap { line -> Int? in
            guard let count = field("sessions", in: line), count >= sessions else { return nil }
            return field("took_ms", in: line)
        }
    }

    /// The whole number after ` KEY=` in a log line (logfmt or swift-log's metadata), if any.
    static func field(_ key: String, in line: Substring) -> Int? {
        guard let found = line.range(of: " " + key + "=") else { return nil }
        let digits = line[found.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return Int(digits)
    }

    /// Watches the checkpoint file for renames: `stat` every 2 ms, and the header and end frame
    /// read when its inode changed (a new file renamed over it).
    struct FileWatch {
        /// The checkpoint's path.
        let path: String
        private var inode: ino_t
        private var writtenAtMs: Int64

        /// A watch of `path`; what is there now counts as seen.
        init(path: String) {
            self.path = path
            var info = stat()
            inode = stat(path, &info) == 0 ? info.st_ino : 0
            writtenAtMs = Self.read(path)?.writtenAtMs ?? 0
        }

        /// The next walk's file once its rename is seen, or nil when the file that appeared is not a
        /// whole checkpoint; throws after `timeoutMs` without one.
        mutating func next(timeoutMs: Int, what: String) throws(BenchError) -> Walk? {
            let deadline = MonotonicClock.nanoseconds() + UInt64(timeoutMs) * 1_000_000
            var info = stat()
            while MonotonicClock.nanoseconds() < deadline {
                if stat(path, &info) == 0, info.st_ino != inode {
                    let seenMs = Self.wallMilliseconds()
                    inode = info.st_ino
                    guard let found = Self.read(path) else { return nil }
                    guard found.writtenAtMs != writtenAtMs else { continue }
                    writtenAtMs = found.writtenAtMs
                    return Walk(
                        writtenAtMs: found.writtenAtMs,
                        endToEndMs: seenMs - Double(found.writtenAtMs),
                        bytes: found.bytes,
                        sessions: found.sessions
                    )
                }
                MonotonicClock.sleep(milliseconds: 2)
            }
            throw BenchError("no \(what) at \(path) within \(timeoutMs / 1000) s")
        }

        /// The header's time, the end frame's session count and the size of the whole checkpoint
        /// at `path` (`MWCK`, version, Int64 ms; frames; the end frame: kind 2, length 8, UInt64
        /// count, little-endian), or nil when there is none or it is not whole.
        static func read(_ path: String) -> (writtenAtMs: Int64, sessions: Int, bytes: Int)? {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_size >= 16 + 17 else { return nil }
            var header = [UInt8](repeating: 0, count: 16)
            var end = [UInt8](repeating: 0, count: 17)
            guard pread(fd, &header, 16, 0) == 16, pread(fd, &end, 17, off_t(info.st_size) - 17) == 17,
                header.prefix(4).elementsEqual("MWCK".utf8), end[0] == 2, little(end, at: 1) == 8
            else { return nil }
            return (Int64(bitPattern: little(header, at: 8)), Int(little(end, at: 9)), Int(info.st_size))
        }

        private static func little(_ bytes: [UInt8], at offset: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }

        /// `CLOCK_REALTIME` in ms, with a fraction.
        static func wallMilliseconds() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
        }
    }
}
