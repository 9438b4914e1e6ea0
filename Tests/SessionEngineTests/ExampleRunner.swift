import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// Runs the worked examples rule modules ship (`mw_example`) and checks that each fires as declared:
/// for every rule, every example, and every edition in the example's editions, the example's NDJSON
/// goes through a fresh `EventPipeline` with that edition as the default, and the number of that
/// rule's violations must equal the example's `expected`.
///
/// Usable for any catalog: load it with the real loader, then `ExampleRunner(catalog:).assertAll()`.
struct ExampleRunner {
    /// The result of one example in one edition.
    struct Outcome: CustomStringConvertible {
        let module: String
        let rule: String
        let example: String
        let edition: Edition
        let expected: Int
        let fired: Int
        /// Events of the example the decoder or the engine rejected (a broken example), with why.
        let rejected: [String]

        var passed: Bool { fired == expected && rejected.isEmpty }

        var description: String {
            var text =
                "\(module)/\(rule), example \"\(example)\" in edition \(edition.name): "
                + "expected \(expected) violation(s), got \(fired)"
            if !rejected.isEmpty { text += "; rejected events: " + rejected.joined(separator: "; ") }
            return text
        }
    }

    /// The rules and their examples.
    let catalog: RuleCatalog
    /// The configuration each run starts from; its default edition is replaced by the example's.
    /// Per-app overrides would change what the examples mean: keep them out.
    var configuration = EngineConfiguration()

    /// Runs one example of one rule in one edition.
    func run(_ rule: RuleDescriptor, _ example: RuleExample, edition: Edition) -> Outcome {
        var configuration = self.configuration
        configuration.defaultEdition = edition
        let output = CollectingOutput()
        let pipeline = EventPipeline(catalog: catalog, configuration: configuration, output: output)
        for line in example.events.split(whereSeparator: \.isNewline)
        where !line.allSatisfy(\.isWhitespace) {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
        }
        let rejections: Set<DiagnosticReason> = [.malformedJSON, .missingField, .badField, .tooLarge]
        return Outcome(
            module: rule.module,
            rule: rule.id,
            example: example.name,
            edition: edition,
            expected: example.expected,
            fired: output.violations(of: rule.id).count,
            rejected: output.diagnostics.filter { rejections.contains($0.reason) }.map {
                "\($0.reason.rawValue): \($0.detail)"
            }
        )
    }

    /// Every example of every rule (of `modules`, when given), in every edition it declares.
    func runAll(modules: Set<String>? = nil) -> [Outcome] {
        var outcomes: [Outcome] = []
        for rule in catalog.rules where modules?.contains(rule.module) ?? true {
            for example in rule.examples {
                for edition in example.editions {
                    outcomes.append(run(rule, example, edition: edition))
                }
            }
        }
        return outcomes
    }

    /// Rules that lack an example that triggers them or one that does not (rules.md asks for both).
    func coverageProblems(modules: Set<String>? = nil) -> [String] {
        catalog.rules.filter { modules?.contains($0.module) ?? true }.compactMap { rule in
            let triggers = rule.examples.contains { $0.expected > 0 }
            let quiet = rule.examples.contains { $0.expected == 0 }
            switch (triggers, quiet) {
            case (true, true): return nil
            case (false, true): return "\(rule.module)/\(rule.id) has no example that triggers it"
            case (true, false): return "\(rule.module)/\(rule.id) has no example that does not trigger it"
            case (false, false): return "\(rule.module)/\(rule.id) has no examples"
            }
        }
    }

    /// Fails the test for every example that does not fire as declared and every rule without both
    /// kinds of example; returns the outcomes.
    @discardableResult
    func assertAll(modules: Set<String>? = nil, file: StaticString = #filePath, line: UInt = #line) -> [Outcome] {
        let outcomes = runAll(modules: modules)
        XCTAssertFalse(outcomes.isEmpty, "no examples to run", file: file, line: line)
        for outcome in outcomes where !outcome.passed {
            XCTFail(outcome.description, file: file, line: line)
        }
        for problem in coverageProblems(modules: modules) {
            XCTFail(problem, file: file, line: line)
        }
        return outcomes
    }
}
