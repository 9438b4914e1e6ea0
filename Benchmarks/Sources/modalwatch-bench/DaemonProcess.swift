import Foundation
import Glibc

/// One real `modalwatchd` child: launched with `posix_spawn` on free loopback ports,
/// a fresh `--state-dir`, no `--config` unless given (the built-in defaults, all four modules
/// next to the executable), and `$NOTIFY_SOCKET` pointing at the bench, which times READY=1.
final class DaemonProcess {
    /// The child's pid.
    let pid: pid_t
    /// Where it binds its ingest `SUB`.
    let events: String
    /// Where it binds its violations `PUB`.
    let publish: String
    /// Where it binds its control `REP`.
    let control: String
    /// From `posix_spawn` to the READY=1 datagram, in ns.
    let readyNanoseconds: UInt64
    /// Its log (stdout and stderr).
    let logPath: String
    /// Its `--state-dir` (history, session checkpoint).
    let stateDirectory: String
    private let registry: ChildRegistry
    private var reaped = false

    /// Launches `executable` in a new folder under `folder` and waits for READY=1; with
    /// `stateDirectory`, on that state folder (a restart) instead of a fresh one; with `config`,
    /// that configuration file (`--config`); logging at `logLevel` (`--log-level`).
    init(
        executable: String,
        folder: String,
        registry: ChildRegistry,
        readyTimeoutMs: Int = 10_000,
        stateDirectory: String? = nil,
        config: String? = nil,
        logLevel: String = "notice"
    ) throws(BenchError) {
        self.registry = registry
        let directory = folder + "/daemon-\(UInt32.random(in: 0...UInt32.max))"
        self.stateDirectory = stateDirectory ?? directory + "/state"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: self.stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create \(directory): \(error.localizedDescription)")
        }
        let ports = try Self.freePorts(3)
        events = "tcp://127.0.0.1:\(ports[0])"
        publish = "tcp://127.0.0.1:\(ports[1])"
        control = "tcp://127.0.0.1:\(ports[2])"
        logPath = directory + "/daemon.log"
        let notify = try NotifySocket(path: directory + "/notify.sock")
        defer { notify.close() }

        let arguments =
            [
                executable, "--events", events, "--publish", publish, "--control", control,
                "--state-dir", self.stateDirectory, "--log-level", logLevel,
            ] + (config.map { ["--config", $0] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY"] { environment[key] = nil }
        environment["NOTIFY_SOCKET"] = notify.path
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var child: pid_t = 0
        let launched = MonotonicClock.nanoseconds()
        let result = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw .system("posix_spawn(\(executable))", result) }
        pid = child
        registry.add(child)
        var exited = false
        let readyAt = notify.waitReady(timeoutMs: readyTimeoutMs) {
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child { exited = true }
            return !exited
        }
        guard let readyAt else {
            let log = Self.tail(of: logPath)
            if !exited {
                kill(child, SIGKILL)
                var status: Int32 = 0
                while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            }
            registry.remove(child)
            throw BenchError(
                exited
                    ? "modalwatchd exited before READY=1; its log:\n\(log)"
                    : "modalwatchd sent no READY=1 within \(readyTimeoutMs) ms; its log:\n\(log)"
            )
        }
        readyNanoseconds = readyAt - launched
    }

    deinit { stopNow() }

    /// The child's resident set (`VmRSS` of /proc/PID/status), in bytes.
    func residentBytes() throws(BenchError) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            throw BenchError("cannot read /proc/\(pid)/status; did modalwatchd exit?")
        }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kib = Int(fields[1]) { return kib * 1024 }
        }
        throw BenchError("no VmRSS in /proc/\(pid)/status")
    }

    /// SIGTERM, up to `graceMs` for a clean exit, then SIGKILL; always reaps.
    func stop(graceMs: Int = 3000) {
        guard !reaped else { return }
        kill(pid, SIGTERM)
        let deadline = MonotonicClock.nanoseconds() + UInt64(graceMs) * 1_000_000
        var status: Int32 = 0
        while MonotonicClock.nanoseconds() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                registry.remove(pid)
                return
            }
            MonotonicClock.sleep(milliseconds: 5)
        }
        stopNow()
    }

    /// SIGTERM, then waits up to `timeoutMs` for the exit: the seconds it took and the exit
    /// status, or nil (and SIGKILL) when it did not exit in time.
    func stopTimed(timeoutMs: Int) -> (seconds: Double, status: Int32)? {
        guard !reaped else { return nil }
        let began = MonotonicClock.nanoseconds()
        kill(pid, SIGTERM)
        let deadline = began + UInt64(timeoutMs) * 1_000_000
        var status: Int32 = 0
        while MonotonicClock.nanoseconds() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                let ended = MonotonicClock.nanoseconds()
                reaped = true
                registry.remove(pid)
                return (MonotonicClock.seconds(from: began, to: ended), status)
            }
            MonotonicClock.sleep(milliseconds: 2)
        }
        stopNow()
        return nil
    }

    /// SIGKILL and reap.
    func stopNow() {
        guard !reaped else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        reaped = true
        registry.remove(pid)
    }

    /// The last lines of the daemon's log.
    var logTail: String { Self.tail(of: logPath) }

    /// The lines of the daemon's log so far that contain `text`.
    func logLines(containing text: String) -> [Substring] {
        guard let log = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return log.split(separator: "\n").filter { $0.contains(text) }
    }

    private static func tail(of path: String, lines: Int = 20) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "(no log at \(path))" }
        let tail = text.split(separator: "\n").suffix(lines).joined(separator: "\n")
        return tail.isEmpty ? "(the log is empty)" : tail
    }

    /// `count` distinct free loopback TCP ports (bound to port 0 together, then released).
    static func freePorts(_ count: Int) throws(BenchError) -> [Int] {
        var descriptors: [Int32] = []
        defer { for fd in descriptors { close(fd) } }
        var ports: [Int] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .system("socket(AF_INET)") }
            descriptors.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
                }
            }
            guard bound else { throw .system("bind(127.0.0.1:0)") }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}
