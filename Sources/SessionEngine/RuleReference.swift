import Foundation
public import RuleHost

/// The rule reference (docs/rules.md), generated from the loaded modules' own
/// metadata, so that it cannot drift: every rule with its guideline and source,
/// editions, severity, parameters, and a message its first triggering example produces.
public struct RuleReference: Sendable {
    private let catalog: RuleCatalog

    /// A reference for the rules of `catalog`.
    public init(catalog: RuleCatalog) {
        self.catalog = catalog
    }

    /// The whole page, Markdown.
    public func markdown() -> String {
        var out = """
            # Rule reference

            Generated from the rule modules' own metadata by `modalwatch rules --markdown`;
            a test fails when this file is stale. The catalogue the modules implement is
            `docs/spec/rules.md`; each summary states the decisions a rule makes where
            the catalogue leaves a choice.

            """
        let runner = RuleExampleRunner(catalog: catalog)
        for module in catalog.modules.sorted(by: { $0.name < $1.name }) {
            out += "\n## Module `\(module.name)` \(module.version)\n\n"
            out += "| id | severity | editions | languages | parameters |\n|---|---|---|---|---|\n"
            for rule in module.rules {
                let parameters =
                    rule.parameters.isEmpty
                    ? "—"
                    : rule.parameters
                        .map { "`\($0.name)` \($0.format($0.defaultValue))" }.joined(separator: ", ")
                out +=
                    "| [`\(rule.id)`](#\(rule.id)) | \(rule.severity.name) | \(rule.editions.map(\.name).joined(separator: ", ")) | \(rule.languages.name) | \(parameters) |\n"
            }
            for rule in module.rules {
                out += "\n### \(rule.id)\n\n"
                out += "\(rule.summary)\n\n"
                out += "- **Guideline:** \(rule.guideline)\n"
                out += "- **Source:** \(rule.source)\n"
                out +=
                    "- **Severity:** \(rule.severity.name); **editions:** \(rule.editions.map(\.name).joined(separator: ", ")); **languages:** \(rule.languages.name); **fires:** \(rule.fire.rawValue.replacingOccurrences(of: "_", with: " ")); **rev** \(rule.rev)\n"
                for parameter in rule.parameters {
                    out +=
                        "- **Parameter `\(parameter.name)`** (\(parameter.kind.name), default \(parameter.format(parameter.defaultValue))): \(parameter.meaning)\n"
                }
                if let example = exampleMessage(rule, runner) {
                    out += "- **Example message** (\(example.edition.name), \(example.example)): \(example.message)\n"
                }
            }
        }
        return out
    }

    private func exampleMessage(
        _ rule: RuleDescriptor,
        _ runner: RuleExampleRunner
    ) -> (edition: Edition, example: String, message: String)? {
        for example in rule.examples where example.expected > 0 {
            for edition in example.editions.sorted(by: >) {
                let outcome = runner.run(rule, example, in: edition)
                if let message = outcome.firstMessage { return (edition, example.name, message) }
            }
        }
        return nil
    }
}
