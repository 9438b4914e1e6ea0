import Foundation
import Glibc

/// `perf record` attached to a daemon for one measurement (`--perf DIR`): started when
/// the measured messages start, stopped with SIGINT when they are done.
final class ProfilerProcess {
    /// The file perf writes.
    let output: String
    private let pid: pid_t
    private let registry: ChildRegistry
    private var reaped = false

    /// Starts `perf record ARGUMENTS -p TARGET -o OUTPUT`.
    init(target: pid_t, output: String, arguments: [String], registry: ChildRegistry) throws(BenchError) {
        self.output = output
        self.registry = registry
        let argv = (["perf", "record"] + arguments + ["-p", "\(target)", "-o", output]).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output + ".log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var child: pid_t = 0
        let result = posix_spawnp(&child, "perf", &actions, nil, argv, environ)
        guard result == 0 else { throw .system("posix_spawnp(perf)", result) }
        pid = child
        registry.add(child)
        // perf needs a moment to attach before the measured messages go.
        MonotonicClock.sleep(milliseconds: 300)
    }

    deinit { stop() }

    /// SIGINT, and wait for perf to write its file.
    func stop() {
        guard !reaped else { return }
        kill(pid, SIGINT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        reaped = true
        registry.remove(pid)
    }
}
