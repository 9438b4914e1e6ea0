import ArgumentParser
import ControlProtocol
import Logging
import RuleHost

/// `--rule R` names a rule that exists: checked against the rules a daemon runs (its `rules`
/// reply), or against the modules the command line loads itself when no daemon is asked.
enum RuleIdCheck {
    /// Exits 2 with one line (the nearest rule id, or how to list them) when `rule` is not among `known`.
    static func require(_ rule: String, known: [String]) throws {
        guard !known.contains(rule) else { return }
        Terminal.error(Suggestion.sentence(rule, known: known, what: "rule", listing: "modalwatch rules lists them"))
        throw ExitCode(2)
    }

    /// The rule ids the daemon behind `client` runs, or nil when it does not answer.
    static func daemonRules(_ client: ControlClient) -> [String]? {
        (try? client.send(RulesRequest()))?.rules.map(\.id)
    }

    /// The rule ids of the built-in modules and `directories`, as `check` loads them.
    static func loadedRules(directories: [String] = []) -> [String] {
        var logger = Logger(label: "modalwatch")
        logger.logLevel = .critical
        return ModuleLoader(logger: logger).load(directories: directories, settings: [:]).rules.map(\.id)
    }
}
