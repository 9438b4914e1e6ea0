import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import ModalwatchConfig
import RuleHost
import SessionEngine

/// `modalwatch rules`: every loaded rule with its metadata and the parameter values in force.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every loaded rule: id, module, severity, editions, parameters and their values, summary.",
        discussion: """
            Loads the rule modules itself, as the daemon would, with --config and --rules-dir; with --control, asks \
            the running daemon instead (its rules and the values in force there).
            """
    )

    @OptionGroup var selection: RuleSelectionOptions

    @Flag(name: .long, help: "Machine-readable JSON output.")
    var json = false

    @Option(
        name: .long,
        help: "Ask the daemon at this control endpoint for the rules it runs, instead of loading the modules."
    )
    var control: String?

    @Option(name: .long, help: "Milliseconds to wait for the daemon (with --control) before giving up (exit 3).")
    var timeout: Int = 3000

    @Flag(name: .long, help: "Under each rule's guideline, also print when it fires (its summary).")
    var verbose = false

    @Flag(name: .long, help: "Print the rule reference (docs/rules.md) generated from the modules' metadata.")
    var markdown = false

    @Flag(
        name: .long,
        help: "Run every rule's worked examples (its tests) and report each that does not come out as declared."
    )
    var verify = false

    @Option(
        name: .long,
        help:
            "With --verify: check this built module file alone (ABI, metadata, worked examples), one verdict per rule."
    )
    var module: String?

    func run() throws {
        if let control {
            if markdown || verify {
                throw ValidationError("--markdown and --verify load the modules; they do not take --control")
            }
            try daemonRules(control)
            return
        }
        if let module {
            guard verify else {
                throw ValidationError("--module goes with --verify: modalwatch rules --verify --module PATH")
            }
            try verifyModule(at: module)
            return
        }
        let (catalog, configuration) = try selection.load()
        if markdown {
            var lines = RuleReference(catalog: catalog).markdown().split(
                separator: "\n",
                omittingEmptySubsequences: false
            )
            if lines.last?.isEmpty == true { lines.removeLast() }
            for line in lines { Terminal.print(String(line)) }
            return
        }
        if verify {
            let outcomes = RuleExampleRunner(catalog: catalog).runAll()
            let failed = outcomes.filter { !$0.passed }
            if json {
                JSONOutput.line(Self.verification(outcomes, rules: catalog.rules.count, modules: catalog.modules.count))
                if !failed.isEmpty { throw ExitCode(1) }
                return
            }
            for outcome in failed { Terminal.print(outcome.description) }
            Terminal.print(
                "\(outcomes.count - failed.count) passed, \(failed.count) failed (\(catalog.rules.count) rules, \(catalog.modules.count) modules)"
            )
            if !failed.isEmpty { throw ExitCode(1) }
            return
        }
        let profile = RuleProfile(catalog: catalog, configuration: configuration.engine, app: nil)
        let edition = profile.edition
        if json {
            var rules: [RuleInfo] = []
            for rule in catalog.rules where selection.edition == nil || rule.applies(in: edition) {
                let active = profile.rules.first { $0.descriptor.id == rule.id }
                rules.append(
                    RuleInfo(
                        id: rule.id,
                        rev: rule.rev,
                        module: rule.module,
                        severity: (active?.severity ?? rule.severity).name,
                        editions: rule.editions.map(\.name),
                        active: active != nil,
                        fire: nil,
                        summary: rule.summary,
                        guideline: rule.guideline,
                        source: rule.source,
                        parameters: rule.parameters.map { p in
                            let value = active?.value(of: p.name) ?? p.defaultValue
                            return RuleInfo.Parameter(
                                name: p.name,
                                kind: p.kind.name,
                                defaultValue: p.defaultValue,
                                value: value,
                                display: p.format(value),
                                meaning: p.meaning
                            )
                        },
                        examples: nil
                    )
                )
                rules[rules.count - 1].languages = rule.languages.declaredName
            }
            JSONOutput.line(RulesReply(edition: edition.name, rules: rules).fields)
            return
        }
        var listing = RulesListing()
        for rule in catalog.rules where selection.edition == nil || rule.applies(in: edition) {
            let active = profile.rules.first { $0.descriptor.id == rule.id }
            listing.rows.append(
                RulesListing.Row(
                    id: rule.id,
                    active: active != nil,
                    module: rule.module,
                    severity: (active?.severity ?? rule.severity).name,
                    editions: rule.editions.map(\.name),
                    languages: rule.languages.declaredName ?? "-",
                    parameters: rule.parameters.map {
                        "\($0.name)=\($0.format(active?.value(of: $0.name) ?? $0.defaultValue))"
                    },
                    guideline: rule.guideline,
                    firesWhen: verbose ? rule.summary : nil
                )
            )
        }
        for line in listing.lines(width: Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil) {
            Terminal.print(line)
        }
    }

    /// `rules --verify --json`: every worked example's outcome and the totals, as one object.
    static func verification(_ outcomes: [RuleExampleRunner.Outcome], rules: Int, modules: Int) -> JSONValue {
        let failed = outcomes.filter { !$0.passed }.count
        return .object([
            "passed": .int(outcomes.count - failed), "failed": .int(failed), "rules": .int(rules),
            "modules": .int(modules),
            "examples": .array(
                outcomes.map { outcome in
                    .object([
                        "rule": .string(outcome.rule), "example": .string(outcome.example),
                        "edition": .string(outcome.edition.name),
                        "expected": .int(outcome.expected), "found": .int(outcome.found),
                        "rejected": .int(outcome.rejected),
                        "passed": .bool(outcome.passed),
                    ])
                }
            ),
        ])
    }

    /// The rules the daemon at `endpoint` runs.
    private func daemonRules(_ endpoint: String) throws {
        var reply = try ControlClient(endpoint: endpoint, timeoutMs: timeout).ask(RulesRequest())
        if let edition = selection.edition {
            reply.rules = reply.rules.filter { $0.editions.contains(edition) }
        }
        if json {
            JSONOutput.line(reply.fields)
            return
        }
        var listing = RulesListing()
        for rule in reply.rules {
            listing.rows.append(
                RulesListing.Row(
                    id: rule.id,
                    active: rule.active,
                    module: rule.module,
                    severity: rule.severity,
                    editions: rule.editions,
                    languages: rule.languages ?? "-",
                    parameters: rule.parameters.map { "\($0.name)=\($0.display)" },
                    guideline: rule.guideline,
                    firesWhen: verbose ? rule.summary : nil
                )
            )
        }
        for line in listing.lines(width: Terminal.isTerminal(STDOUT_FILENO) ? Terminal.size()?.columns : nil) {
            Terminal.print(line)
        }
    }
}
