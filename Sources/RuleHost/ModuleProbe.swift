import Glibc
public import Logging
import Posix

/// Runs the constructors, the entry point and `on_init` of rule modules in a child process
/// before the host loads them, so that a module that crashes, aborts, exits or hangs while it
/// loads or initializes is refused by name instead of taking the host down
/// (docs/writing-a-rule-module.md, "When a module fails").
///
/// The child is the host's own executable started with
/// `--probe-module [--probe-settings ENCODED] FILE...` (`posix_spawn`, never a bare `fork` of the
/// multi-threaded host). For each file it writes `s INDEX` on descriptor 3, loads the file as the
/// loader does (`dlopen`, `modalwatch_module()`, the ABI and every field of the description), runs
/// its `on_init` with the module's settings, then writes `f INDEX`; it exits 0 at the end without
/// running destructors (nor any module's `on_destroy`). A child that dies while a file is in progress names that file; one that
/// takes longer than `timeoutMs` for one file is killed and names it. The probe then starts a
/// new child for the files after it.
public struct ModuleProbe: Sendable {
    /// The hidden flag that makes an executable a probe child; handled in `main` before
    /// anything else (`runChildIfAsked()`).
    public static let flag = "--probe-module"
    /// How long one module may take to load by default.
    public static let defaultTimeoutMs: Int64 = 5000
    /// The descriptor the child reports progress on.
    static let progressDescriptor: Int32 = 3

    /// The executable started as the child.
    public let executable: String
    /// How long one module may take to load in the child.
    public let timeoutMs: Int64
    /// Each module's settings (`modules:` in the config), by module name, for `on_init` in the child.
    public var settings: [String: [(key: String, value: String)]] = [:]
    /// The flag before the encoded settings.
    static let settingsFlag = "--probe-settings"

    /// A probe that starts `executable` (an executable that calls `runChildIfAsked()` first).
    public init(executable: String, timeoutMs: Int64 = defaultTimeoutMs) {
        self.executable = executable
        self.timeoutMs = timeoutMs
    }

    /// A probe that starts the running executable again: `/proc/self/exe`, which is the
    /// running file even when an upgrade replaced or removed it on disk.
    public static func ofThisExecutable(timeoutMs: Int64 = defaultTimeoutMs) -> ModuleProbe {
        ModuleProbe(executable: "/proc/self/exe", timeoutMs: timeoutMs)
    }

    // MARK: - The child

    /// When the process was started as a probe child (`argv[1]` is `--probe-module`), loads
    /// each file named after the flag, reports its progress and exits; otherwise returns.
    public static func runChildIfAsked() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, arguments[1] == flag else { return }
        let loader = ModuleLoader(logger: Logger(label: "modalwatch-probe") { _ in SwiftLogNoOpLogHandler() })
        var paths = arguments.dropFirst(2)
        var settings: [String: [(key: String, value: String)]] = [:]
        if paths.first == settingsFlag, paths.count >= 2 {
            settings = decode(paths.dropFirst().first!)
            paths = paths.dropFirst(2)
        }
        for (index, path) in paths.enumerated() {
            report("s \(index)\n")
            if let module = try? loader.loadModule(path: path), let description = module.hooks.description {
                try? ModuleInitializer(path: path, description: description, hooks: module.hooks)
                    .initialize(module.runtime, settings: settings[module.name] ?? [])
            }
            report("f \(index)\n")
        }
        // No destructors: what a module registered to run at exit is not part of loading it.
        _exit(0)
    }

    /// The settings as one argument: `module=key=value` entries separated by `,`, each part in
    /// hexadecimal UTF-8 (settings may hold any character but NUL).
    static func encode(_ settings: [String: [(key: String, value: String)]]) -> String {
        func hex(_ text: String) -> String {
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: text.utf8.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
        }
        return settings.keys.sorted().flatMap { module in
            settings[module]!.map { "\(hex(module))=\(hex($0.key))=\(hex($0.value))" }
        }.joined(separator: ",")
    }

    /// `encode`'s inverse; entries that do not read are left out.
    static func decode(_ encoded: String) -> [String: [(key: String, value: String)]] {
        func text(_ hex: Substring) -> String? {
            guard hex.count % 2 == 0 else { return nil }
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var settings: [String: [(key: String, value: String)]] = [:]
        for entry in encoded.split(separator: ",") {
            let parts = entry.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 3, let module = text(parts[0]), let key = text(parts[1]), let value = text(parts[2])
            else { continue }
            settings[module, default: []].append((key, value))
        }
        return settings
    }

    private static func report(_ line: String) {
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(progressDescriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    // MARK: - The host

    /// Starts probing `paths` in order: ask the run for each file's verdict, in order, as the
    /// loader reaches it (the child goes on with the next files meanwhile).
    public func start(_ paths: [String], logger: Logger) -> ModuleProbeRun {
        ModuleProbeRun(probe: self, paths: paths, logger: logger)
    }

    /// Probes `paths`; the failures by index into `paths`. A file with no entry here loaded
    /// in the child without a fault (its checks, if it failed them, the loader repeats).
    public func probe(_ paths: [String], logger: Logger) -> [Int: ModuleLoadError] {
        let run = start(paths, logger: logger)
        defer { run.finish() }
        var failures: [Int: ModuleLoadError] = [:]
        for index in paths.indices {
            failures[index] = run.verdict(index)
        }
        return failures
    }

    /// A started child: its process and the read end of its progress pipe.
    struct Child {
        let pid: pid_t
        let progress: Int32
    }

    /// Starts a child that probes `paths`; its process and progress pipe, or why not.
    func startChild(paths: ArraySlice<String>) -> Result<Child, SpawnFailure> {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return .failure(SpawnFailure("pipe: \(String(cString: strerror(errno)))")) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Neither end leaks into the child but as descriptor 3 (posix_spawn's dup2 clears the flag there).
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        let settingsArguments = settings.isEmpty ? [] : [Self.settingsFlag, Self.encode(settings)]
        let spawned = spawn(arguments: [executable, Self.flag] + settingsArguments + paths, progress: writeEnd)
        try? Posix.close(writeEnd)
        switch spawned {
        case .success(let pid):
            return .success(Child(pid: pid, progress: readEnd))
        case .failure(let failure):
            try? Posix.close(readEnd)
            return .failure(failure)
        }
    }

    private func spawn(arguments: [String], progress: Int32) -> Result<pid_t, SpawnFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, progress, Self.progressDescriptor)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and every signal at its default action,
        // whatever the host's threads set up.
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        // A process group of its own: a module that signals its group (`kill(0, ...)`) reaches
        // the child only.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)
        )
        // A crash in a module is the expected outcome of a probe: no Swift backtrace for it.
        var environment = Environment.lines().filter { !$0.hasPrefix("SWIFT_BACKTRACE=") }
        environment.append("SWIFT_BACKTRACE=enable=no")
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else {
            return .failure(SpawnFailure("posix_spawn \(executable): \(String(cString: strerror(code)))"))
        }
        return .success(pid)
    }

    /// Waits for `pid`; its exit status, or the signal that ended it.
    static func wait(_ pid: pid_t) -> (exit: Int32, signal: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return (-1, 0) }
        }
        let signal = status & 0x7f
        return signal == 0 ? ((status >> 8) & 0xff, 0) : (0, signal)
    }
}

/// Why no probe child could be started.
struct SpawnFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private enum Environment {
    /// The process's environment as `NAME=value` lines.
    static func lines() -> [String] {
        var lines: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            lines.append(String(cString: pointer))
            entry += 1
        }
        return lines
    }
}
