import ControlProtocol
import Foundation
import Glibc

/// A restart at many live sessions: a fresh daemon filled with `sessions` idle sessions
/// (their `session.start`s in batches, as fast as it takes them), SIGTERM and the time
/// until it exits (it writes the last session checkpoint on the way out), the snapshot's size,
/// then a second daemon on the same state folder and the time from `posix_spawn` to
/// READY=1 (sent after the snapshot is restored), and how many sessions it restored.
struct RestartBenchmark {
    /// What the run measured.
    struct Result: Sendable {
        /// Sessions asked for.
        var requested: Int
        /// Live sessions when the first daemon was stopped (the warm-up's one more).
        var sessions: Int
        /// Seconds from SIGTERM to the first daemon's exit.
        var stopSeconds: Double
        /// The first daemon's exit status (raw `waitpid` status).
        var exitStatus: Int32
        /// The snapshot file's size, bytes.
        var snapshotBytes: Int
        /// Seconds from the second daemon's `posix_spawn` to its READY=1.
        var readySeconds: Double
        /// Live sessions in the second daemon once READY.
        var restored: Int
        /// Seconds to fill the first daemon.
        var fillSeconds: Double

        /// Snapshot bytes per live session.
        var bytesPerSession: Double { Double(snapshotBytes) / Double(max(1, sessions)) }
    }

    /// The daemon's executable.
    let executable: String
    /// Where its folders go.
    let folder: String
    /// Children to clean up.
    let registry: ChildRegistry
    /// Live sessions to restart with.
    let sessions: Int
    /// The generator's seed.
    let seed: UInt32

    /// The file name the daemon writes its binary snapshot to.
    static let snapshotFileName = "sessions.checkpoint"

    /// Fills `daemon` with `sessions` idle sessions (their `session.start`s in 50-event batches,
    /// after one warm-up session): the status once `sessions_live` reached them, and the seconds
    /// from the first batch sent until then.
    static func fill(_ daemon: DaemonProcess, sessions: Int, seed: UInt32) throws(BenchError) -> (StatusReply, Double) {
        let starts = BenchEvents.idleSessions(sessions, seed: seed).messages(batch: 50)
        let client = StatusPoller(endpoint: daemon.control)
        try EndToEndBenchmark.checkModules(try client.status())
        let sender = EventSender(endpoint: daemon.events, warmup: BenchEvents.warmupStart(), messages: starts)
        try sender.start()
        defer { sender.finish() }
        _ = try client.poll(intervalMs: 2, timeoutMs: 10_000, what: "the warm-up event") { $0[.eventsReceived] >= 1 }
        sender.go()
        let fillMs = max(60_000, sessions / 10)
        let (filled, filledAt) = try client.poll(intervalMs: 50, timeoutMs: fillMs, what: "\(sessions) live sessions") {
            $0[.sessionsLive] >= sessions
        }
        return (filled, MonotonicClock.seconds(from: sender.currentReport.firstSend, to: filledAt))
    }

    /// One run: two daemons, one after the other, on one state folder.
    func run() throws(BenchError) -> Result {
        let first = try DaemonProcess(executable: executable, folder: folder, registry: registry)
        defer { first.stopNow() }
        let (filled, fillSeconds) = try Self.fill(first, sessions: sessions, seed: seed)
        guard let (stopSeconds, exitStatus) = first.stopTimed(timeoutMs: 60_000) else {
            throw BenchError(
                "modalwatchd did not exit within 60 s of SIGTERM with \(filled[.sessionsLive]) sessions; its log:\n\(first.logTail)"
            )
        }
        let snapshotPath = first.stateDirectory + "/" + Self.snapshotFileName
        var info = stat()
        guard stat(snapshotPath, &info) == 0 else {
            throw BenchError(
                "no session checkpoint at \(snapshotPath) after the stop (exit status \(exitStatus)); its log:\n\(first.logTail)"
            )
        }
        let second = try DaemonProcess(
            executable: executable,
            folder: folder,
            registry: registry,
            readyTimeoutMs: 120_000,
            stateDirectory: first.stateDirectory
        )
        // No graceful stop: it would write the snapshot again.
        defer { second.stopNow() }
        let restored = try StatusPoller(endpoint: second.control).status()[.sessionsLive]
        return Result(
            requested: sessions,
            sessions: filled[.sessionsLive],
            stopSeconds: stopSeconds,
            exitStatus: exitStatus,
            snapshotBytes: Int(info.st_size),
            readySeconds: Double(second.readyNanoseconds) / 1e9,
            restored: restored,
            fillSeconds: fillSeconds
        )
    }
}
