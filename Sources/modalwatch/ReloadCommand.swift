import ArgumentParser
import ControlProtocol

/// `modalwatch reload`: asks the daemon to read its configuration again and says what it
/// answered; systemd's `ExecReload=` runs it, so a refused file fails the reload.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Ask the daemon to read its configuration again, and say what it answered.",
        discussion: """
            Sends the control protocol's reload request and prints the daemon's summary (what is in force; \
            changes that wait for a restart are named in it) or its refusal (the configuration's errors; the old \
            configuration stays in force). A reload over a tcp:// control endpoint is refused unless the daemon's \
            configuration allows it (control_allow_reload_over_tcp). With several --control endpoints each daemon \
            is asked and its line starts with its endpoint. \
            Exit status: 0 reloaded, 1 refused by a daemon, 3 no daemon reachable within --timeout.
            """
    )

    @OptionGroup var options: ControlOptions

    func run() throws {
        let fleet = options.fleet
        let (answers, failures) = fleet.gather(ReloadRequest())
        for answer in answers {
            if options.json {
                JSONOutput.reply(answer.bytes)
            } else {
                Terminal.print((fleet.isSingle ? "" : "\(answer.endpoint): ") + answer.reply.summary)
            }
        }
        for (endpoint, failure) in failures {
            Terminal.error((fleet.isSingle ? "" : "\(endpoint): ") + failure.description)
        }
        if failures.contains(where: { if case .refused = $0.failure { true } else { false } }) { throw ExitCode(1) }
        if !failures.isEmpty { throw ExitCode(3) }
    }
}
