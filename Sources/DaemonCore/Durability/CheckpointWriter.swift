import ByteBasics
import Foundation
import Glibc
import Logging
import Posix
import SessionEngine
import Synchronization

/// The thread that writes checkpoints (`mw-sessions`): the ingest thread hands it each slice
/// of a walk (`Checkpointer`) as values; this thread encodes each into a part, appends it to
/// `sessions.checkpoint.partial`, and at the walk's end writes the end frame, syncs, and renames
/// the file over `sessions.checkpoint`, then syncs the folder. The previous checkpoint stays
/// whole until then. A failed write abandons that walk's file (logged and counted); the next
/// walk starts a new one.
final class CheckpointWriter: Sendable {
    /// What the ingest thread hands over.
    enum Command: Sendable {
        /// A walk began at `writtenAtMs` (wall clock).
        case begin(writtenAtMs: Int64)
        /// Some of its sessions (the last part has the apps).
        case part(EngineSnapshot)
        /// The walk's end, after `sessions` sessions.
        case end(sessions: Int)
    }

    /// What the last checkpoints did, for `status` and `/metrics`.
    struct Statistics: Sendable {
        /// Checkpoints made whole.
        var written: UInt64 = 0
        /// Walks whose file could not be written.
        var failed: UInt64 = 0
        /// When the newest whole checkpoint's walk began (wall-clock ms; 0 for none yet).
        var lastWrittenAtMs: Int64 = 0
        /// Its sessions and bytes.
        var lastSessions = 0
        var lastBytes = 0
        /// From the walk's start to the rename, in ms.
        var lastDurationMs: Int64 = 0
    }

    private struct Queue {
        var commands: [Command] = []
        /// Sessions handed over and not yet written.
        var pendingSessions = 0
        var stopping = false
    }

    /// The thread's name in the kernel (`top -H`).
    static let kernelThreadName = "mw-sessions"

    private let file: CheckpointFile
    private let logger: Logger
    private let queue = Mutex(Queue())
    private let statisticsBox = Mutex(Statistics())
    private let wake = NSCondition()
    private let ended = DispatchSemaphore(value: 0)

    init(file: CheckpointFile, logger: Logger) {
        self.file = file
        self.logger = logger
    }

    /// What the last checkpoints did.
    var statistics: Statistics { statisticsBox.withLock { $0 } }

    /// Sessions handed over and not yet written (the ingest thread waits past a bound).
    var pendingSessions: Int { queue.withLock { $0.pendingSessions } }

    /// Starts the thread.
    func start() {
        let thread = Thread { [self] in
            KernelThreadName.set(Self.kernelThreadName)
            run()
            ended.signal()
        }
        thread.name = Self.kernelThreadName
        thread.start()
    }

    /// Hands `command` over; returns at once.
    func submit(_ command: Command) {
        wake.lock()
        queue.withLock { queue in
            queue.commands.append(command)
            if case .part(let part) = command { queue.pendingSessions += part.sessionCount }
        }
        wake.signal()
        wake.unlock()
    }

    /// Ends the thread, abandoning a walk under way (its partial file removed); returns when it
    /// has ended.
    func stop() {
        wake.lock()
        queue.withLock { $0.stopping = true }
        wake.signal()
        wake.unlock()
        ended.wait()
    }

    private func run() {
        var writing: Walk?
        while true {
            wake.lock()
            var taken: [Command] = []
            var stopping = false
            while true {
                (taken, stopping) = queue.withLock { queue in
                    defer { queue.commands.removeAll(keepingCapacity: true) }
                    return (queue.commands, queue.stopping)
                }
                if !taken.isEmpty || stopping { break }
                wake.wait()
            }
            wake.unlock()
            if stopping {
                writing?.abandon()
                return
            }
            for command in taken {
                switch command {
                case .begin(let writtenAtMs):
                    writing?.abandon()
                    writing = open(writtenAtMs: writtenAtMs)
                case .part(let part):
                    if let walk = writing {
                        do {
                            try walk.append(part)
                        } catch {
                            fail(walk, error)
                            writing = nil
                        }
                    }
                    queue.withLock { $0.pendingSessions -= part.sessionCount }
                case .end(let sessions):
                    guard let walk = writing else { continue }
                    writing = nil
                    do {
                        let bytes = try walk.finish(sessions: sessions)
                        let duration = PosixClock.monotonic.milliseconds() - walk.startedMonotonicMs
                        statisticsBox.withLock {
                            $0.written += 1
                            $0.lastWrittenAtMs = walk.writtenAtMs
                            $0.lastSessions = sessions
                            $0.lastBytes = bytes
                            $0.lastDurationMs = duration
                        }
                        logger.debug(
                            "wrote a session checkpoint",
                            metadata: [
                                "sessions": "\(sessions)", "bytes": "\(bytes)", "took_ms": "\(duration)",
                            ]
                        )
                    } catch {
                        fail(walk, error)
                    }
                }
            }
        }
    }

    /// A new walk's partial file, its header written; nil (logged, counted) when it cannot be made.
    private func open(writtenAtMs: Int64) -> Walk? {
        do {
            return try Walk(file: file, writtenAtMs: writtenAtMs)
        } catch {
            statisticsBox.withLock { $0.failed += 1 }
            logger.error(
                "could not start a session checkpoint; the previous one stays in force",
                metadata: [
                    "path": "\(file.partialPath)", "error": "\(error)",
                ]
            )
            return nil
        }
    }

    private func fail(_ walk: Walk, _ error: any Error) {
        walk.abandon()
        statisticsBox.withLock { $0.failed += 1 }
        logger.error(
            "could not write a session checkpoint; the previous one stays in force",
            metadata: [
                "path": "\(file.partialPath)", "error": "\(error)",
            ]
        )
    }

    /// One walk's partial file, written on the writer's thread.
    private final class Walk {
        let file: CheckpointFile
        let writtenAtMs: Int64
        let startedMonotonicMs = PosixClock.monotonic.milliseconds()
        private var descriptor: Int32
        private var bytes = 0

        init(file: CheckpointFile, writtenAtMs: Int64) throws(PosixError) {
            self.file = file
            self.writtenAtMs = writtenAtMs
            descriptor = try Posix.open(file.partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600)
            do {
                try write(CheckpointFile.header(writtenAtMs: writtenAtMs))
            } catch {
                abandon()
                throw error
            }
        }

        func append(_ part: EngineSnapshot) throws(PosixError) {
            let encoded = part.binaryEncoded()
            try write(CheckpointFile.frameHeader(.part, length: encoded.count))
            try write(encoded)
        }

        /// Writes the end frame, syncs, renames over the checkpoint and syncs the folder;
        /// returns the file's bytes.
        func finish(sessions: Int) throws(PosixError) -> Int {
            try write(CheckpointFile.endFrame(sessions: sessions))
            try Posix.fsync(descriptor)
            try Posix.close(descriptor)
            descriptor = -1
            try Posix.rename(file.partialPath, file.path)
            try AtomicFile.syncFolder(of: file.path)
            return bytes
        }

        /// Closes and removes the partial file.
        func abandon() {
            if descriptor >= 0 {
                try? Posix.close(descriptor)
                descriptor = -1
            }
            try? Posix.unlink(file.partialPath)
        }

        private func write(_ chunk: [UInt8]) throws(PosixError) {
            try chunk.withUnsafeBytes { buffer in
                Result { () throws(PosixError) in try Posix.writeAll(descriptor, buffer) }
            }.get()
            bytes += chunk.count
        }
    }
}
