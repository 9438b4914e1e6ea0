import ArgumentParser
import ControlProtocol
import Foundation

/// `modalwatch session ID`: one session's presentation stack as a tree, alert timeline,
/// counters, recent events and violations.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract:
            "Show one session: its presentation stack now, alert timeline, counters, recent events, its violations.",
        discussion: """
            The timeline and recent events come from the daemon's journal, a fixed ring of the latest events of \
            all sessions: it shows what is still in the ring. A session that ended is shown from the journal while \
            its events are still there. Exit status: 0 shown, 1 no such session, 3 daemon unreachable.
            """
    )

    @OptionGroup var options: ControlOptions

    @Argument(help: "The session id.")
    var id: String

    @Option(name: .long, help: "Recent events to show (0 to 16384).")
    var events: Int = 20

    func validate() throws {
        if events < 0 || events > SessionRequest.maximumEvents {
            throw ValidationError("--events must be 0 to \(SessionRequest.maximumEvents)")
        }
    }

    func run() throws {
        let request = SessionRequest(id: id, events: events, ended: true)
        let fleet = options.fleet
        let answer: DaemonFleet.Answer<SessionReply>
        if fleet.isSingle {
            answer = try fleet.ask(request)[0]
        } else {
            // The session lives on one daemon; the others refuse ("no such session"), quietly.
            let (answers, failures) = fleet.gather(request)
            for (endpoint, failure) in failures {
                if case .refused = failure { continue }
                Terminal.error("\(endpoint): \(failure.description)")
            }
            guard let found = answers.first else {
                let refusal = failures.lazy.compactMap { if case .refused(let text) = $0.failure { text } else { nil } }
                    .first
                Terminal.error(refusal ?? "no daemon answered")
                throw refusal == nil ? ExitCode(3) : ExitCode(1)
            }
            answer = found
        }
        if options.json {
            JSONOutput.reply(answer.bytes)
            return
        }
        for line in SessionReport(reply: answer.reply).lines() { Terminal.print(line) }
    }
}
