import Foundation
import Glibc

/// A command the bench runs to its end for a measurement another tool makes (callgrind through
/// `bench/engine_cost.sh`, the scripts that need pyzmq or a PostgreSQL server, package-benchmark):
/// its output to a file, its pid with the registry so that an interrupted bench kills it too, and a
/// clear error when it fails.
struct HelperCommand {
    /// The program and its arguments; the program is looked up on `PATH`.
    let arguments: [String]
    /// Variables set on top of the bench's own environment.
    var environment: [String: String] = [:]
    /// The folder it runs in.
    let directory: String
    /// Exit statuses that mean success (`modalwatch check` exits 1 when it found violations).
    var successes: Set<Int32> = [0]

    /// Runs it to its end; returns what it wrote on standard output (standard error goes to `log`).
    func run(registry: ChildRegistry, log: String) throws -> String {
        let (text, status) = try runToEnd(registry: registry, log: log)
        guard successes.contains(status) else {
            let tail = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3)
                .joined(separator: " | ")
            throw BenchError("\(arguments.joined(separator: " ")) failed (status \(status)): \(tail)")
        }
        return text
    }

    /// Runs it to its end; returns what it wrote on standard output and its exit status (a
    /// signal's end throws).
    func runToEnd(registry: ChildRegistry, log: String) throws -> (output: String, status: Int32) {
        let output = log + ".out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        guard let out = FileHandle(forWritingAtPath: output), let err = FileHandle(forWritingAtPath: log) else {
            throw BenchError("cannot write \(output)")
        }
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw BenchError("cannot start \(arguments.joined(separator: " ")): \(error.localizedDescription)")
        }
        registry.add(process.processIdentifier)
        process.waitUntilExit()
        registry.remove(process.processIdentifier)
        guard process.terminationReason == .exit else {
            throw BenchError(
                "\(arguments.joined(separator: " ")) was killed by signal \(process.terminationStatus) (see \(log))"
            )
        }
        return ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "", process.terminationStatus)
    }

    /// Whether `program` is on `PATH`.
    static func isInstalled(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    /// The repository the daemon was built in (`ROOT/.build/CONFIG/modalwatchd` → `ROOT`), or
    /// else the current folder or one above it, whichever has `bench/engine_cost.sh`.
    static func repositoryRoot(daemon: String) throws -> String {
        var candidates = [
            URL(fileURLWithPath: daemon).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path
        ]
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        while folder.path != "/" {
            candidates.append(folder.path)
            folder = folder.deletingLastPathComponent()
        }
        guard
            let root = candidates.first(where: { FileManager.default.fileExists(atPath: $0 + "/bench/engine_cost.sh") })
        else {
            throw BenchError(
                "cannot find the repository (bench/engine_cost.sh) from \(daemon) or the current folder; run the bench from the repository"
            )
        }
        return root
    }
}
