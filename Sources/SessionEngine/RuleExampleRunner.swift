public import RuleHost

/// Runs the worked examples rules ship (their tests): each example's stream,
/// in each edition it names, through a fresh pipeline, counting the rule's violations.
/// An example is a fragment of a session: an event of a session it did not start begins the
/// session under `-`, where the daemon would refuse it as `unknown_session`.
public struct RuleExampleRunner: Sendable {
    /// One example run in one edition.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// The rule.
        public var rule: String
        /// The example's name.
        public var example: String
        /// The edition it ran in.
        public var edition: Edition
        /// Violations of the rule the example declares.
        public var expected: Int
        /// Violations of the rule found.
        public var found: Int
        /// Events rejected by the decoder or the engine (an example should have none).
        public var rejected: Int
        /// The first violation's message, if the rule fired.
        public var firstMessage: String?

        /// Whether it came out as declared, with no rejected event.
        public var passed: Bool { expected == found && rejected == 0 }

        /// One line.
        public var description: String {
            let verdict = passed ? "ok" : "FAILED"
            let extra = rejected > 0 ? ", \(rejected) event(s) rejected" : ""
            return "\(verdict): \(rule) [\(edition.name)] \(example): expected \(expected), found \(found)\(extra)"
        }
    }

    private let catalog: RuleCatalog

    /// A runner over the rules of `catalog`.
    public init(catalog: RuleCatalog) {
        self.catalog = catalog
    }

    /// Every example of every rule, in every edition it names.
    public func runAll() -> [Outcome] {
        catalog.rules.flatMap(run)
    }

    /// Every example of one rule, in every edition it names.
    public func run(_ rule: RuleDescriptor) -> [Outcome] {
        rule.examples.flatMap { example in
            example.editions.map { edition in run(rule, example, in: edition) }
        }
    }

    /// One example in one edition.
    public func run(_ rule: RuleDescriptor, _ example: RuleExample, in edition: Edition) -> Outcome {
        let counter = Counter(rule: rule.id)
        var configuration = EngineConfiguration(defaultEdition: edition)
        configuration.startsSessionsWithoutApp = true
        let pipeline = EventPipeline(catalog: catalog, configuration: configuration, output: counter)
        var text = example.events
        text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
                start = i + 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                pipeline.process(payload: line, observed: 0)
            }
        }
        return Outcome(
            rule: rule.id,
            example: example.name,
            edition: edition,
            expected: example.expected,
            found: counter.count,
            rejected: Int(pipeline.eventsRejected),
            firstMessage: counter.firstMessage
        )
    }

    private final class Counter: EngineOutput {
        let rule: String
        var count = 0
        var firstMessage: String?

        init(rule: String) { self.rule = rule }

        func emit(_ violation: EmittedViolation) {
            guard violation.rule == rule else { return }
            count += 1
            if firstMessage == nil { firstMessage = ViolationFields.string("message", in: violation.json) }
        }

        func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {}
    }
}
