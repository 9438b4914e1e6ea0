import EventDecoding
import Foundation
public import RuleHost
public import SessionEngine

/// An `EngineOutput` for tests and fuzzers: it counts what the engine emits, checks each violation
/// (one JSON object, topic `violation/APP/RULE`) and each diagnostic (a one-line detail), and, unless
/// made with `keepsEverything: false`, keeps each violation's topic, bytes and parsed object and each
/// diagnostic with its detail.
public final class CollectingOutput: EngineOutput {
    /// One violation as the engine emitted it.
    public struct Violation {
        /// `violation/APP/RULE`.
        public let topic: String
        /// The violation object's JSON text.
        public let json: String
        /// The JSON parsed (empty if it did not parse: see `problems`).
        public let object: [String: Any]
        /// The rule id.
        public let rule: String
        /// The rule's module.
        public let module: String
        /// The severity in force.
        public let severity: Severity
        /// The bundle id.
        public let app: String
        /// The session id.
        public let session: String
        /// Event time of the triggering event (ms).
        public let ts: Int64
        /// Wall-clock time it was found (ms).
        public let observed: Int64

        /// The `evidence` object.
        public var evidence: [String: Any] { object["evidence"] as? [String: Any] ?? [:] }
        /// The JSON text with `"observed":N` blanked, for comparing runs.
        public var jsonWithoutObserved: String {
            json.replacingOccurrences(of: #""observed":-?[0-9]+"#, with: #""observed":_"#, options: .regularExpression)
        }
    }

    /// One diagnostic.
    public struct Diagnostic: Equatable, Sendable {
        /// Why.
        public let reason: DiagnosticReason
        /// The bundle id, if known.
        public let app: String?
        /// The session id, if known.
        public let session: String?
        /// The one-line detail.
        public let detail: String

        /// A diagnostic (for comparing with what was collected).
        public init(reason: DiagnosticReason, app: String?, session: String?, detail: String) {
            self.reason = reason
            self.app = app
            self.session = session
            self.detail = detail
        }
    }

    /// Whether violations and diagnostics are kept (else only counted and checked).
    public let keepsEverything: Bool
    /// The violations, in order (empty unless `keepsEverything`).
    public private(set) var violations: [Violation] = []
    /// The diagnostics, in order (empty unless `keepsEverything`).
    public private(set) var diagnostics: [Diagnostic] = []
    /// How many violations were emitted.
    public private(set) var violationCount = 0
    /// How many diagnostics were emitted.
    public private(set) var diagnosticCount = 0
    /// How many violations each rule emitted.
    public private(set) var countsByRule: [String: Int] = [:]
    /// What broke the output's contract: a violation that is not one JSON object or whose topic is
    /// not `violation/APP/RULE`, a diagnostic detail that is empty or not one line (should stay empty).
    public private(set) var problems: [String] = []

    /// An output that keeps everything, or (`keepsEverything: false`, for fuzzers) only counts and checks.
    public init(keepsEverything: Bool = true) {
        self.keepsEverything = keepsEverything
    }

    /// Counts, checks and (if kept) records one violation.
    public func emit(_ violation: EmittedViolation) {
        violationCount += 1
        countsByRule[violation.rule, default: 0] += 1
        let topic = String(decoding: violation.topic, as: UTF8.self)
        if !JSONSyntax.isValidObject(violation.json) {
            problems.append("a violation of \(violation.rule) that is not one JSON object")
        }
        if !(topic.hasPrefix("violation/") && topic.hasSuffix("/" + violation.rule)) {
            problems.append("violation topic \(topic)")
        }
        guard keepsEverything else { return }
        let json = String(decoding: violation.json, as: UTF8.self)
        let parsed = (try? JSONSerialization.jsonObject(with: Data(violation.json))) as? [String: Any]
        violations.append(
            Violation(
                topic: topic,
                json: json,
                object: parsed ?? [:],
                rule: violation.rule,
                module: violation.module,
                severity: violation.severity,
                app: violation.app,
                session: String(decoding: violation.session, as: UTF8.self),
                ts: violation.ts,
                observed: violation.observed
            )
        )
    }

    /// Counts, checks and (if kept) records one diagnostic.
    public func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        diagnosticCount += 1
        let text = detail()
        if text.isEmpty || text.contains("\n") {
            problems.append("\(reason.rawValue) diagnostic detail is not one line: \(text)")
        }
        guard keepsEverything else { return }
        diagnostics.append(Diagnostic(reason: reason, app: app, session: session, detail: text))
    }

    /// The violations of one rule, in order.
    public func violations(of rule: String) -> [Violation] { violations.filter { $0.rule == rule } }

    /// The diagnostics of one reason, in order.
    public func diagnostics(_ reason: DiagnosticReason) -> [Diagnostic] { diagnostics.filter { $0.reason == reason } }
}

/// Not Sendable: an output belongs to the thread that runs its engine.
@available(*, unavailable)
extension CollectingOutput: Sendable {}

/// Not Sendable: holds parsed JSON (`[String: Any]`).
@available(*, unavailable)
extension CollectingOutput.Violation: Sendable {}
