import Foundation
import RuleHost
import SessionEngine

/// An `EngineOutput` that keeps everything: each violation's topic, bytes and parsed object, and each
/// diagnostic with its detail.
final class CollectingOutput: EngineOutput {
    /// One violation as the engine emitted it.
    struct Violation {
        let topic: String
        let json: String
        let object: [String: Any]
        let rule: String
        let module: String
        let severity: Severity
        let app: String
        let session: String
        let ts: Int64
        let observed: Int64

        /// The `evidence` object.
        var evidence: [String: Any] { object["evidence"] as? [String: Any] ?? [:] }
        /// The JSON text with `"observed":N` blanked, for comparing runs.
        var jsonWithoutObserved: String {
            json.replacingOccurrences(of: #""observed":-?[0-9]+"#, with: #""observed":_"#, options: .regularExpression)
        }
    }

    /// One diagnostic.
    struct Diagnostic: Equatable {
        let reason: DiagnosticReason
        let app: String?
        let session: String?
        let detail: String
    }

    private(set) var violations: [Violation] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// JSON that did not parse as an object (should stay empty).
    private(set) var unparsable: [String] = []

    func emit(_ violation: EmittedViolation) {
        let json = String(decoding: violation.json, as: UTF8.self)
        let parsed = (try? JSONSerialization.jsonObject(with: Data(violation.json))) as? [String: Any]
        if parsed == nil { unparsable.append(json) }
        violations.append(Violation(
            topic: String(decoding: violation.topic, as: UTF8.self), json: json, object: parsed ?? [:],
            rule: violation.rule, module: violation.module, severity: violation.severity, app: violation.app,
            session: String(decoding: violation.session, as: UTF8.self), ts: violation.ts,
            observed: violation.observed))
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        diagnostics.append(Diagnostic(reason: reason, app: app, session: session, detail: detail()))
    }

    /// The violations of one rule, in order.
    func violations(of rule: String) -> [Violation] { violations.filter { $0.rule == rule } }

    /// The diagnostics of one reason, in order.
    func diagnostics(_ reason: DiagnosticReason) -> [Diagnostic] { diagnostics.filter { $0.reason == reason } }
}
