import ArgumentParser
import Foundation
import Glibc
import ModalwatchConfig
import Report
import RuleHost
import SessionEngine

/// `modalwatch check`: judge recorded NDJSON streams offline with the same engine and modules as the daemon.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Judge recorded event streams (NDJSON files, - for stdin) offline.",
        discussion: """
            --format json prints one violation per line, as the daemon publishes it; --format sarif prints one \
            SARIF 2.1.0 log for code-scanning tools. Exit status: 0 nothing at or above --fail-on, 1 violations \
            found, 2 bad usage or unreadable input (a file that cannot be read, or one whose every event is rejected). \
            Rejected events among accepted ones are counted in the summary and the rest is judged.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, sarif
    }

    @Argument(help: "NDJSON files of events, one event per line; - reads stdin.")
    var files: [String]

    @OptionGroup var rules: RuleSelectionOptions

    @Option(
        name: .long,
        help: "text (for people), json (one violation per line, as the daemon publishes it) or sarif (SARIF 2.1.0)."
    )
    var format: Format = .text

    @Flag(name: .long, help: "The same as --format json.")
    var json = false

    @Option(
        name: .customLong("fail-on"),
        help: "Exit 1 when a violation at or above this severity is found: info, warning or error."
    )
    var failOn: String = "warning"

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one NDJSON file, or - for stdin") }
        if Severity(name: failOn) == nil { throw ValidationError("--fail-on must be info, warning or error") }
        if json && format != .text && format != .json {
            throw ValidationError("--json and --format \(format.rawValue) disagree; pick one")
        }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("stdin (-) can be read once") }
    }

    func run() throws {
        let (catalog, configuration) = try rules.load()
        let format = json ? .json : self.format
        // Only SARIF needs every violation at the end; the other formats print each as it comes.
        let collector = CheckCollector(keeping: format == .sarif)
        let out = BufferedOutput()
        defer { out.flush() }
        switch format {
        case .json:
            collector.onViolation = { _, json in out.writeJSONLine(json) }
        case .text:
            collector.onViolation = { [unowned collector] found, json in
                let severity = Terminal.severity(Terminal.pad(found.severity.name, 7), found.severity.name)
                let place = collector.location.map { "\($0.file):\($0.line): " } ?? ""
                let time = ReportTime.format(found.ts, seconds: true)
                let object = CheckCollector.object(json)
                let session = String(decoding: found.session, as: UTF8.self)
                let text =
                    "\(place)\(severity) \(found.rule)  \(found.app) \(session) \(time): \(CheckCollector.message(in: object))"
                out.write(Array((Terminal.visible(text) + "\n").utf8))
                if let suggestion = CheckCollector.suggestion(in: object) {
                    out.write(Array(("    suggestion: " + Terminal.visible(suggestion) + "\n").utf8))
                }
            }
        case .sarif:
            break
        }
        let pipeline = EventPipeline(catalog: catalog, configuration: configuration.engine, output: collector)
        for file in files {
            guard let data = read(file) else {
                Terminal.error("cannot read '\(file)'; check the path and permissions")
                throw ExitCode(2)
            }
            let observed = Int64(Date().timeIntervalSince1970 * 1000)
            let name = file == "-" ? "-" : file
            collector.file = name
            data.withUnsafeBytes { bytes in
                var start = 0
                var number = 0
                while start <= bytes.count {
                    // memchr finds the end of the line; a byte-by-byte loop cost 8% of `check`.
                    let i = Self.lineEnd(in: bytes, from: start)
                    let line = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
                    start = i + 1
                    number += 1
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    collector.line = number
                    pipeline.process(payload: line, observed: observed)
                }
            }
            collector.file = nil
        }
        if format == .sarif {
            let found = collector.violations
            let log = SarifLog(
                catalog: catalog,
                profile: RuleProfile(catalog: catalog, configuration: configuration.engine, app: nil),
                files: files,
                found: found,
                notifications: collector.diagnosticLines,
                version: Modalwatch.configuration.version
            )
            out.write(JSONOutput.escaped(log.bytes))
            out.write([0x0A])
        }
        out.flush()
        let threshold = Severity(name: failOn)!
        let bySeverity = collector.severities
        let summary = Severity.allCases.reversed().map { "\(bySeverity[$0]) \($0.name)" }.joined(separator: ", ")
        var line =
            "\(bySeverity.total) violation(s) (\(summary)) in \(pipeline.statistics.eventsReceived) event(s), edition \(configuration.engine.defaultEdition.name)"
        let rejected = pipeline.eventsRejected
        if rejected > 0 { line += "; \(rejected) rejected" }
        let anomalies = collector.diagnostics.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        if !anomalies.isEmpty { line += " [\(anomalies.joined(separator: ", "))]" }
        let received = pipeline.statistics.eventsReceived
        if received > 0 && rejected >= received {
            // Nothing judged: the input is not an event stream, which is unreadable input (exit 2), not a clean result.
            let reasons = pipeline.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                separator: ", "
            )
            Terminal.error(
                "every event was rejected (\(rejected) of \(received): \(reasons)), nothing was judged; "
                    + "is it NDJSON of events (docs/spec/events.md)? The first rejection: \(collector.diagnosticLines.first ?? "-")"
            )
            throw ExitCode(2)
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
        for diagnostic in collector.diagnosticLines {
            FileHandle.standardError.write(Data((Terminal.visible("  \(diagnostic)") + "\n").utf8))
        }
        if Severity.allCases.contains(where: { $0 >= threshold && bySeverity[$0] > 0 }) { throw ExitCode(1) }
    }

    private func read(_ file: String) -> Data? {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        return FileManager.default.contents(atPath: file)
    }

    /// The index of the next newline at or after `start`, or the end.
    static func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard start < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        guard let found = memchr(base + start, 0x0A, bytes.count - start) else { return bytes.count }
        return UnsafeRawPointer(found) - base
    }
}
