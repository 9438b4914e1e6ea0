import EventDecoding
import SessionEngine

/// An engine output that checks what the engine emits: every violation is one valid JSON object
/// with a `violation/APP/RULE` topic, and every diagnostic's detail is one line.
final class CheckingOutput: EngineOutput {
    private(set) var violations = 0
    private(set) var diagnostics = 0

    func emit(_ violation: EmittedViolation) {
        FuzzCheck.require(JSONSyntax.isValidObject(violation.json), "a violation that is not one JSON object")
        let topic = String(decoding: violation.topic, as: UTF8.self)
        FuzzCheck.require(topic.hasPrefix("violation/") && topic.hasSuffix("/" + violation.rule), "violation topic \(topic)")
        violations += 1
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        let text = detail()
        FuzzCheck.require(!text.isEmpty && !text.contains("\n"), "diagnostic detail is not one line: \(text)")
        diagnostics += 1
    }
}
