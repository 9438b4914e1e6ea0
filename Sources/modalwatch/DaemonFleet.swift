import ArgumentParser
import ControlProtocol

/// Several daemons asked as one (scale.md, "The command line"): each `--control` endpoint
/// gets the same request; a daemon that does not answer is named on stderr and the rest
/// still answer. Only when none answers is it a failure (exit 3; 1 when every one refused).
final class DaemonFleet {
    /// One daemon's answer.
    struct Answer<Reply> {
        /// Its control endpoint.
        let endpoint: String
        /// The reply's bytes as the daemon sent them.
        let bytes: [UInt8]
        /// The typed reply.
        let reply: Reply
    }

    /// A client per endpoint, in the order given.
    let clients: [ControlClient]

    /// A fleet of the daemons at `endpoints`, each request waiting at most `timeoutMs`.
    init(endpoints: [String], timeoutMs: Int) {
        clients = endpoints.map { ControlClient(endpoint: $0, timeoutMs: timeoutMs) }
    }

    /// Whether there is one daemon only (its replies are then printed as it sent them).
    var isSingle: Bool { clients.count == 1 }

    /// Every daemon's answer, and the failures by endpoint, without printing.
    func gather<Command: ControlCommand>(
        _ command: Command
    ) -> (answers: [Answer<Command.Reply>], failures: [(endpoint: String, failure: ControlClient.Failure)]) {
        var answers: [Answer<Command.Reply>] = []
        var failures: [(String, ControlClient.Failure)] = []
        for client in clients {
            do {
                let (bytes, reply) = try client.exchange(command)
                answers.append(Answer(endpoint: client.endpoint, bytes: bytes, reply: reply))
            } catch {
                failures.append((client.endpoint, error))
            }
        }
        return (answers, failures)
    }

    /// `body` for each daemon's client, in order; each failure is one line on stderr naming its
    /// daemon. Throws the exit code when none answered: 1 when each refused, else 3.
    func each<Result>(_ body: (ControlClient) throws(ControlClient.Failure) -> Result) throws -> [Result] {
        var results: [Result] = []
        var failures: [(endpoint: String, failure: ControlClient.Failure)] = []
        for client in clients {
            do { results.append(try body(client)) } catch { failures.append((client.endpoint, error)) }
        }
        try report(failures, answered: !results.isEmpty)
        return results
    }

    private func report(_ failures: [(endpoint: String, failure: ControlClient.Failure)], answered: Bool) throws {
        for (endpoint, failure) in failures {
            Terminal.error(isSingle ? failure.description : "\(endpoint): \(failure.description)")
        }
        if !answered {
            let refused = failures.allSatisfy { if case .refused = $0.failure { true } else { false } }
            throw refused ? ExitCode(1) : ExitCode(3)
        }
    }

    /// Every answer; each failure is one line on stderr naming its daemon. Throws the exit
    /// code when none answered: 1 when each refused, else 3.
    func ask<Command: ControlCommand>(_ command: Command) throws -> [Answer<Command.Reply>] {
        let (answers, failures) = gather(command)
        try report(failures, answered: !answers.isEmpty)
        return answers
    }
}
