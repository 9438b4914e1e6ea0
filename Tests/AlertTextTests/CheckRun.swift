import Foundation
import XCTest

/// Runs the real `modalwatch check` (the executable built next to this test
/// bundle, with the built-in rule modules beside it) on a stream written to a
/// real file, and reads back the violations it prints as JSON lines.
struct CheckRun {
    /// One violation as `check --format json` prints it.
    struct Violation: CustomStringConvertible {
        var rule: String
        var module: String
        var edition: String
        var subject: String?
        var message: String

        var description: String { "\(rule) [\(edition)] \(subject ?? "-"): \(message)" }
    }

    /// The violations found, in order.
    var violations: [Violation]
    /// What `check` wrote to stderr (its summary line).
    var summary: String

    /// The violations of the `alert-content` and `action-sheet` modules.
    var contentViolations: [Violation] {
        violations.filter { $0.module == "alert-content" || $0.module == "action-sheet" }
    }

    /// The folder of the running test executable (SwiftPM's build folder).
    static func buildDirectory() -> URL? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // On platforms that wrap tests in a bundle folder, step out of it.
        while url.pathExtension == "xctest" || url.lastPathComponent == "Contents" || url.lastPathComponent == "MacOS" {
            url.deleteLastPathComponent()
        }
        return url
    }

    /// Runs `modalwatch check FILE --edition EDITION --format json` on `stream`.
    static func run(
        _ stream: String,
        edition: String,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> CheckRun {
        guard let directory = buildDirectory() else { throw XCTSkip("cannot resolve /proc/self/exe") }
        let tool = directory.appendingPathComponent("modalwatch")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            XCTFail(
                "\(tool.path) is missing: build the package (swift build) before running these tests",
                file: file,
                line: line
            )
            throw CocoaError(.fileNoSuchFile)
        }
        let input = FileManager.default.temporaryDirectory
            .appendingPathComponent("alerttext-check-\(getpid())-\(UUID().uuidString).ndjson")
        try Data(stream.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }

        let process = Process()
        process.executableURL = tool
        process.arguments = ["check", input.path, "--edition", edition, "--format", "json"]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let summary = String(decoding: err, as: UTF8.self)
        XCTAssertTrue(
            [0, 1].contains(process.terminationStatus),
            "check exited \(process.terminationStatus): \(summary)",
            file: file,
            line: line
        )
        XCTAssertFalse(summary.contains("rejected"), "events rejected: \(summary)", file: file, line: line)
        XCTAssertFalse(summary.contains("not loaded"), summary, file: file, line: line)

        var violations: [Violation] = []
        for text in String(decoding: out, as: UTF8.self).split(separator: "\n") where !text.isEmpty {
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
            violations.append(
                Violation(
                    rule: object["rule"] as? String ?? "",
                    module: object["module"] as? String ?? "",
                    edition: object["edition"] as? String ?? "",
                    subject: object["subject"] as? String,
                    message: object["message"] as? String ?? ""
                )
            )
        }
        return CheckRun(violations: violations, summary: summary)
    }
}
