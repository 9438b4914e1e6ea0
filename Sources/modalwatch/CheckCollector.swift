import Foundation
import RuleHost
import SessionEngine

/// Collects what `check` finds: violations as the daemon would publish them, and rejections.
final class CheckCollector: EngineOutput {
    struct Found {
        let json: [UInt8]
        let rule: String
        let severity: Severity
        let app: String
        let session: String
        let ts: Int64
        /// The violation's message, read from its JSON (for text output only).
        var message: String {
            (try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])?["message"] as? String ?? ""
        }
    }

    private(set) var violations: [Found] = []
    private(set) var diagnostics: [String: Int] = [:]
    private(set) var diagnosticLines: [String] = []
    /// Called for each violation as it is found (for streaming output).
    var onViolation: ((Found) -> Void)?

    func emit(_ violation: EmittedViolation) {
        let found = Found(
            json: Array(violation.json), rule: violation.rule, severity: violation.severity, app: violation.app,
            session: String(decoding: violation.session, as: UTF8.self), ts: violation.ts)
        violations.append(found)
        onViolation?(found)
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        diagnostics[reason.rawValue, default: 0] += 1
        if diagnosticLines.count < 20 {
            diagnosticLines.append("\(reason.rawValue): \(detail())\(session.map { " (session \($0))" } ?? "")")
        }
    }
}
