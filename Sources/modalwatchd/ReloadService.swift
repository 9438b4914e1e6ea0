import DaemonCore
import ServiceLifecycle
import UnixSignals

/// Turns SIGHUP into a reload request for the ingest loop, through swift-service-lifecycle's
/// `UnixSignalsSequence`, until the graceful shutdown: it reads and parses the configuration
/// itself (a file of at most `ConfigSources.maxFileBytes`), so that the ingest thread only puts
/// the result in force. It goes first in the service group, so that it is shut down last: a
/// SIGHUP while the loop drains is still a reload request, never the signal's default action.
struct ReloadService: Service {
    let wakeup: Wakeup
    let configurationSource: IngestLoop.ConfigurationSource

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in signals { wakeup.requestReload(IngestLoop.readConfiguration(configurationSource)) }
        }
    }
}
