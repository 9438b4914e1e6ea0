import ArgumentParser
import ControlProtocol

/// The CLI's way of asking the daemon: a failure is one line on stderr and the exit code
/// interfaces.md gives it, never a hang.
extension ControlClient {
    /// The typed reply; on failure one line on stderr and exit 3 (unreachable) or 1 (refused).
    func ask<Command: ControlCommand>(_ command: Command) throws -> Command.Reply {
        do {
            return try send(command)
        } catch {
            Terminal.error(error.description)
            throw error.exitCode
        }
    }
}

extension ControlClient.Failure {
    /// The exit code interfaces.md gives it: 3 unreachable (or a reply that does not read), 1 refused.
    var exitCode: ExitCode {
        if case .refused = self { return ExitCode(1) }
        return ExitCode(3)
    }
}
