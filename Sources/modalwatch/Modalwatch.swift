import ArgumentParser
import ControlProtocol
import RuleHost

/// `modalwatch`: inspect a running modalwatchd, and judge recorded streams offline.
@main
struct Modalwatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modalwatch",
        abstract: "Inspect modalwatchd live, and judge recorded UI-event streams offline.",
        version: ModalwatchVersion.string,
        subcommands: [
            StatusCommand.self, SessionsCommand.self, SessionCommand.self, TopCommand.self, TailCommand.self,
            ViolationsCommand.self, RulesCommand.self, CheckCommand.self, SendCommand.self, ForwardCommand.self,
            KeygenCommand.self,
            ReportCommand.self, ReloadCommand.self, HistoryCommand.self,
        ]
    )

    /// Runs the command; bad usage exits 2 (interfaces.md), not ArgumentParser's 64.
    /// Started as a module probe child (`--probe-module`, hidden), it does only that.
    static func main() {
        ModuleProbe.runChildIfAsked()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if let unknown = unknownSubcommand(Array(CommandLine.arguments.dropFirst())) {
                Terminal.error(unknown)
                exit(withError: ExitCode(2))
            }
            exit(withError: UsageExit.adjust(error, exitCode: exitCode(for: error), message: fullMessage(for: error)))
        }
    }

    /// One line for a first argument that names no command (`modalwatch staus`), with the
    /// nearest command's name; `nil` when the first argument is an option or a command.
    static func unknownSubcommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        return Suggestion.sentence(first, known: names, what: "command", listing: "modalwatch --help lists them")
    }
}
