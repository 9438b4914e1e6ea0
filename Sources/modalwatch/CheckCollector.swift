import ControlProtocol
import Foundation
import RuleHost
import SessionEngine

/// Collects what `check` finds: violations as the daemon would publish them, and rejections.
final class CheckCollector: EngineOutput {
    /// Where an event came from: the file as named, and its line (from 1).
    struct Location {
        let file: String
        let line: Int
    }

    struct Found {
        let json: [UInt8]
        let rule: String
        let severity: Severity
        let app: String
        let session: String
        let ts: Int64
        /// The line of the event that triggered it.
        let location: Location?
        /// The violation's JSON as a value (for text and SARIF output only).
        var object: JSONValue {
            (try? JSONParser.parse(json)) ?? .object([:])
        }
        /// The violation's message.
        var message: String { object["message"]?.stringValue ?? "" }
        /// The violation's suggestion, nil when it has none.
        var suggestion: String? { object["suggestion"]?.stringValue }
    }

    private(set) var violations: [Found] = []
    private(set) var diagnostics: [String: Int] = [:]
    private(set) var diagnosticLines: [String] = []
    /// The file of the event being judged now (nil: none).
    var file: String?
    /// Its line (set per line: an integer, so that a line costs no reference counting).
    var line = 0
    /// The event being judged now.
    var location: Location? { file.map { Location(file: $0, line: line) } }
    /// Called for each violation as it is found (for streaming output).
    var onViolation: ((Found) -> Void)?

    func emit(_ violation: EmittedViolation) {
        let found = Found(
            json: Array(violation.json), rule: violation.rule, severity: violation.severity, app: violation.app,
            session: String(decoding: violation.session, as: UTF8.self), ts: violation.ts, location: location)
        violations.append(found)
        onViolation?(found)
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        diagnostics[reason.rawValue, default: 0] += 1
        if diagnosticLines.count < 20 {
            let place = location.map { "\($0.file):\($0.line): " } ?? ""
            diagnosticLines.append("\(place)\(reason.rawValue): \(detail())\(session.map { " (session \($0))" } ?? "")")
        }
    }
}
