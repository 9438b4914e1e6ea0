import ArgumentParser
import Foundation
import RuleHost
import SessionEngine

/// `modalwatch check`: judge recorded NDJSON streams offline with the same engine and modules as the daemon.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Judge recorded event streams (NDJSON files, - for stdin) offline.",
        discussion: "Exit status: 0 nothing at or above --fail-on, 1 violations found, 2 bad usage or unreadable input.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "NDJSON files of events, one event per line; - reads stdin.")
    var files: [String]

    @OptionGroup var rules: RuleSelectionOptions

    @Option(name: .long, help: "text (for people) or json (one violation per line, as the daemon publishes it).")
    var format: Format = .text

    @Option(name: .customLong("fail-on"), help: "Exit 1 when a violation at or above this severity is found: info, warning or error.")
    var failOn: String = "warning"

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one NDJSON file, or - for stdin") }
        if Severity(rawValue: failOn) == nil { throw ValidationError("--fail-on must be info, warning or error") }
    }

    func run() throws {
        let (catalog, configuration) = try rules.load()
        let collector = CheckCollector()
        let out = BufferedOutput()
        defer { out.flush() }
        let format = self.format
        collector.onViolation = { found in
            switch format {
            case .json:
                out.write(found.json)
                out.write([0x0A])
            case .text:
                let severity = Terminal.paint(found.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0), Self.colour(found.severity))
                out.write(Array("\(severity) \(found.rule)  \(found.app) \(found.session) @\(found.ts): \(found.message)\n".utf8))
            }
        }
        let pipeline = EventPipeline(catalog: catalog, configuration: configuration.engine, output: collector)
        for file in files {
            guard let data = read(file) else {
                Terminal.error("cannot read '\(file)'; check the path and permissions")
                throw ExitCode(2)
            }
            let observed = Int64(Date().timeIntervalSince1970 * 1000)
            data.withUnsafeBytes { bytes in
                var start = 0
                for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                    let line = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
                    start = i + 1
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    pipeline.process(payload: line, observed: observed)
                }
            }
        }
        out.flush()
        let found = collector.violations
        let threshold = Severity(rawValue: failOn)!
        let bySeverity = Dictionary(grouping: found, by: \.severity).mapValues(\.count)
        let summary = Severity.allCases.reversed().map { "\(bySeverity[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        var line = "\(found.count) violation(s) (\(summary)) in \(pipeline.statistics.eventsReceived) event(s), edition \(configuration.engine.defaultEdition.rawValue)"
        let rejected = pipeline.eventsRejected
        if rejected > 0 { line += "; \(rejected) rejected" }
        let anomalies = collector.diagnostics.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        if !anomalies.isEmpty { line += " [\(anomalies.joined(separator: ", "))]" }
        FileHandle.standardError.write(Data((line + "\n").utf8))
        for diagnostic in collector.diagnosticLines { FileHandle.standardError.write(Data("  \(diagnostic)\n".utf8)) }
        if found.contains(where: { $0.severity >= threshold }) { throw ExitCode(1) }
    }

    private func read(_ file: String) -> Data? {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        return FileManager.default.contents(atPath: file)
    }

    static func colour(_ severity: Severity) -> String {
        switch severity {
        case .error: return "31"
        case .warning: return "33"
        case .info: return "36"
        }
    }
}
