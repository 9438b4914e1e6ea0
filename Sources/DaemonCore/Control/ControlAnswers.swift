import ControlProtocol
import Logging
import ModalwatchConfig
import SessionEngine

/// What the control handler needs to answer the control thread's jobs on the ingest thread, and
/// nothing more, handed to it by the composition root (`Daemon`): the engine (for the `sessions`
/// and `session` jobs), the `rules` reply, putting a configuration read for
/// `reload` in force, and the logger.
struct ControlAnswers {
    /// The engine the jobs read.
    var engine: Engine
    /// The daemon's logger.
    var logger: Logger
    /// The `rules` reply, built now.
    var rules: () -> RulesReply
    /// Puts a configuration read for `reload` in force; the summary, or why not.
    var reload: (Result<DaemonConfiguration, DaemonError>) -> Result<String, DaemonError>
}

@available(*, unavailable)
extension ControlAnswers: Sendable {}
