import Foundation
import Synchronization

/// A PostgreSQL server of the test's own (`scripts/postgres-throwaway.sh`): a cluster in a
/// temporary folder, listening on a Unix socket there, run by an unprivileged user; destroyed
/// by `destroy()`.
final class ThrowawayPostgres: @unchecked Sendable {
    let directory: String
    /// The connection string of its `postgres` database.
    private(set) var conninfo = ""

    private static let sharedServer = Mutex<ThrowawayPostgres?>(nil)

    /// One server for every test of the process (each test makes its own database), destroyed
    /// when the process exits.
    static func shared() throws -> ThrowawayPostgres {
        try sharedServer.withLock { server in
            if let server { return server }
            let made = try ThrowawayPostgres()
            server = made
            atexit { ThrowawayPostgres.sharedServer.withLock { $0?.destroy() } }
            return made
        }
    }

    init() throws {
        directory = NSTemporaryDirectory() + "mw-pg-\(UInt32.random(in: 0...UInt32.max))"
        conninfo = try Self.script("start", directory).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new, empty database on this server; its connection string.
    func makeDatabase() throws -> String {
        let name = "t\(UInt32.random(in: 0...UInt32.max))"
        _ = try Self.run(["/usr/bin/psql", conninfo, "-qAtc", "CREATE DATABASE \(name)"])
        return conninfo.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
    }

    /// Runs one SQL statement with psql; its unaligned output.
    func sql(_ conninfo: String, _ statement: String) throws -> String {
        try Self.run(["/usr/bin/psql", conninfo, "-qAtc", statement]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() throws { _ = try Self.script("stop", directory) }
    func start() throws { _ = try Self.script("start", directory) }
    func destroy() { _ = try? Self.script("destroy", directory) }

    private static func script(_ command: String, _ directory: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try run(["/bin/sh", root.path + "/scripts/postgres-throwaway.sh", command, directory])
    }

    /// Runs `arguments` (posix_spawn, waitpid) with its output in a file, not a pipe: the server
    /// `pg_ctl` starts must not hold the test's pipe open.
    private static func run(_ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "mw-pg-out-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw NSError(domain: "ThrowawayPostgres", code: Int(spawned)) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw NSError(
                domain: "ThrowawayPostgres",
                code: Int(status),
                userInfo: [
                    NSLocalizedDescriptionKey: "\(arguments.joined(separator: " ")): \(text)"
                ]
            )
        }
        return text
    }
}
