import ByteBasics
import Glibc
import Logging
import Posix

/// One probe of a list of module files (`ModuleProbe.start`): the child goes through the
/// files in order while the loader asks for each file's verdict in the same order, so that
/// the host loads a file as soon as the child is past it, and both load at the same time.
///
/// A child that dies while a file is in progress (its `s INDEX` line read, not yet its
/// `f INDEX`) names that file: it crashed (the signal) or exited (the status). One that
/// stays on a file longer than the timeout is killed and names it. The next verdict asked
/// starts a new child from the file after it. When no child can be started, or one fails
/// outside any file, that is logged once and the files not yet probed count as passed.
/// Used on one thread.
public final class ModuleProbeRun {
    private let probe: ModuleProbe
    private let paths: [String]
    private let logger: Logger
    private var failures: [Int: ModuleLoadError] = [:]
    /// Every file below this index has its verdict.
    private var resolved = 0
    private var gaveUp = false
    private var child: (process: ModuleProbe.Child, first: Int)?
    private var inProgress: Int?
    private var deadline: Int64 = 0
    private var pending: [UInt8] = []

    init(probe: ModuleProbe, paths: [String], logger: Logger) {
        self.probe = probe
        self.paths = paths
        self.logger = logger
    }

    deinit { finish() }

    /// The verdict of `paths[index]`: why it is refused, or nil when it loaded in the child
    /// without a fault (or could not be probed). Waits for the child as long as it takes, at
    /// most the timeout per file. Ask in increasing order of `index`.
    public func verdict(_ index: Int) -> ModuleLoadError? {
        while index >= resolved && !gaveUp {
            if child == nil { startChild(from: resolved) } else { step() }
        }
        return failures[index]
    }

    /// Waits for the child to end, if one runs (it exits once past its last file).
    public func finish() {
        while child != nil { step() }
    }

    private func startChild(from first: Int) {
        switch probe.startChild(paths: paths[first...]) {
        case .success(let process):
            child = (process, first)
            inProgress = nil
            pending = []
            deadline = PosixClock.monotonic.microseconds() + probe.timeoutMs * 1000
        case .failure(let failure):
            giveUp(failure.description)
        }
    }

    /// Reads what the child says (or notices its end, or the timeout) once.
    private func step() {
        guard let (process, first) = child else { return }
        let left = max(0, deadline - PosixClock.monotonic.microseconds())
        var descriptor = pollfd(fd: process.progress, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(min(left / 1000 + 1, Int64(Int32.max))))
        if ready < 0 { return }  // EINTR: again
        if ready == 0 {
            guard PosixClock.monotonic.microseconds() >= deadline else { return }
            kill(process.pid, SIGKILL)
            end(process, first: first, timedOut: true)
            return
        }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(process.progress, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { return }
        guard count > 0 else {
            end(process, first: first, timedOut: false)
            return
        }
        pending += buffer[0..<count]
        while let newline = pending.firstIndex(of: 0x0A) {
            let parts = pending[..<newline].split(separator: 0x20)
            pending.removeSubrange(...newline)
            guard parts.count == 2, let offset = Int(String(decoding: parts[1], as: UTF8.self)) else { continue }
            if parts[0].first == UInt8(ascii: "s") {
                inProgress = first + offset
            } else {
                inProgress = nil
                resolved = max(resolved, first + offset + 1)
            }
            deadline = PosixClock.monotonic.microseconds() + probe.timeoutMs * 1000
        }
    }

    /// The child ended (or was killed): names the file in progress, if any.
    private func end(_ process: ModuleProbe.Child, first: Int, timedOut: Bool) {
        let status = ModuleProbe.wait(process.pid)
        try? Posix.close(process.progress)
        child = nil
        guard let index = inProgress else {
            if timedOut {
                giveUp("the probe child did not start within \(probe.timeoutMs) ms")
            } else if status.signal == 0 && status.exit == 0 {
                resolved = paths.count
            } else {
                giveUp(
                    status.signal != 0
                        ? "the probe child ended by \(Posix.signalName(status.signal)) outside any module"
                        : "the probe child exited with status \(status.exit) outside any module"
                )
            }
            return
        }
        let reason: ModuleLoadError.Reason
        if timedOut {
            reason = .loadTimedOut(milliseconds: probe.timeoutMs)
        } else if status.signal != 0 {
            reason = .crashedWhileLoading(signal: status.signal)
        } else {
            reason = .exitedWhileLoading(status: status.exit)
        }
        failures[index] = ModuleLoadError(path: paths[index], reason: reason)
        resolved = index + 1
        inProgress = nil
    }

    private func giveUp(_ detail: String) {
        gaveUp = true
        resolved = paths.count
        logger.warning(
            "could not probe rule modules in a child process; loading the rest without a probe",
            metadata: [
                "executable": "\(probe.executable)", "error": "\(detail)",
            ]
        )
    }
}

/// Used on the thread that loads the modules only.
@available(*, unavailable)
extension ModuleProbeRun: Sendable {}
