import ControlProtocol
import Logging
import ModalwatchConfig
import SessionEngine

/// What the control handler reaches on the ingest thread, and nothing more: the engine (for the
/// `sessions` and `session` jobs), the `status` and `rules` reports, putting a configuration read
/// for `reload` in force, and the logger. `IngestLoop` is the one conformer.
protocol ControlledLoop: AnyObject {
    /// The engine the jobs read.
    var engine: Engine { get }
    /// The daemon's logger.
    var logger: Logger { get }
    /// The `status` reply, built now.
    func statusReport() -> StatusReply
    /// The `rules` reply, built now.
    func rulesReport() -> RulesReply
    /// Puts a configuration read for `reload` in force; the summary, or why not.
    func reload(_ read: Result<DaemonConfiguration, DaemonError>) -> Result<String, DaemonError>
}
