import Report
import RuleHost
import SessionEngine

/// What `report` hands the model as the engine judges recorded streams: each violation's fields,
/// and the count of stream problems (as `check` counts them).
final class ReportCollector: EngineOutput {
    let model: ReportModel
    private(set) var diagnostics: [String: Int] = [:]
    private(set) var found = 0

    init(model: ReportModel) {
        self.model = model
    }

    func emit(_ violation: EmittedViolation) {
        found += 1
        let (suggestion, corrected, subjectKind) = ReportViolation.details(of: violation.json)
        model.add(
            ReportViolation(
                rule: violation.rule,
                severity: violation.severity,
                app: violation.app,
                session: String(decoding: violation.session, as: UTF8.self),
                ts: violation.ts,
                subject: ViolationJSON.string("subject", in: violation.json),
                message: ViolationJSON.string("message", in: violation.json),
                suggestion: suggestion,
                corrected: corrected,
                locale: ViolationJSON.string("locale", in: violation.json),
                subjectKind: subjectKind
            )
        )
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        diagnostics[reason.rawValue, default: 0] += 1
    }
}
