import ArgumentParser
import ControlProtocol
import Foundation
import Logging
import ModalwatchConfig
import RuleHost
import SessionEngine

/// `modalwatch rules --verify --module PATH`: the one check a module author runs on a built
/// module. Loads the file alone through the daemon's loader (its constructors and entry point
/// tried in a probe child first, ABI and every metadata field checked, `on_init` run with the
/// config's settings), runs each rule's worked examples through the engine in every edition
/// they name, and prints one verdict per rule.
extension RulesCommand {
    func verifyModule(at path: String) throws {
        var logger = Logger(label: "modalwatch")
        logger.logLevel = .critical
        let settings = selection.config.map(ConfigLoader.peekModuleSettings(path:)) ?? [:]
        var catalog = RuleCatalog()
        selection.moduleLoader(logger: logger).load(path: path, into: &catalog, settings: settings)
        guard let module = catalog.modules.first else {
            if json {
                JSONOutput.line(
                    .object([
                        "path": .string(path), "loaded": .bool(false),
                        "problems": .array(catalog.failures.map { .string($0.description) }),
                    ])
                )
                throw ExitCode(1)
            }
            for failure in catalog.failures { Terminal.print("FAILED  module: \(failure.description)") }
            throw ExitCode(1)
        }
        var verdicts: [JSONValue] = []
        if !json {
            Terminal.print(
                "module \(module.name) \(module.version), ABI \(module.abiMajor).\(module.abiMinor), \(module.rules.count) rules: \(path)"
            )
        }
        let runner = RuleExampleRunner(catalog: catalog)
        let width = module.rules.map(\.id.count).max() ?? 0
        var failedRules = 0
        for rule in module.rules {
            let outcomes = runner.run(rule)
            var problems = outcomes.filter { !$0.passed }.map {
                "'\($0.example)' [\($0.edition.name)] expected \($0.expected), found \($0.found)"
                    + ($0.rejected > 0 ? " (\($0.rejected) event(s) rejected)" : "")
            }
            if !rule.examples.contains(where: { $0.expected > 0 }) { problems.append("no example that triggers it") }
            if !rule.examples.contains(where: { $0.expected == 0 }) {
                problems.append("no example that does not trigger it")
            }
            let name = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
            if !problems.isEmpty { failedRules += 1 }
            if json {
                verdicts.append(
                    .object([
                        "rule": .string(rule.id), "ok": .bool(problems.isEmpty), "example_runs": .int(outcomes.count),
                        "problems": .array(problems.map(JSONValue.string)),
                    ])
                )
            } else if problems.isEmpty {
                Terminal.print("ok      \(name)  \(outcomes.count) example runs")
            } else {
                Terminal.print("FAILED  \(name)  " + problems.joined(separator: "; "))
            }
        }
        if json {
            JSONOutput.line(
                .object([
                    "path": .string(path), "loaded": .bool(true), "module": .string(module.name),
                    "version": .string(module.version),
                    "abi": .string("\(module.abiMajor).\(module.abiMinor)"), "rules": .array(verdicts),
                    "passed": .int(module.rules.count - failedRules), "failed": .int(failedRules),
                    "problems": .array(module.rules.isEmpty ? [.string("module declares no rule")] : []),
                ])
            )
            if failedRules > 0 || module.rules.isEmpty { throw ExitCode(1) }
            return
        }
        if module.rules.isEmpty {
            Terminal.print("FAILED  module declares no rule")
            throw ExitCode(1)
        }
        Terminal.print("\(module.rules.count - failedRules) of \(module.rules.count) rules passed")
        if failedRules > 0 { throw ExitCode(1) }
    }
}
