import DaemonCore
import Foundation
import Logging
import ModalwatchConfig
import ServiceLifecycle

/// Runs the ingest loop on its own thread for the life of the service; a
/// graceful shutdown (SIGTERM, SIGINT) asks it to finish what it received and stop.
/// Only the loop's `Settings` cross to that thread: the loop is made there.
struct IngestService: Service {
    let settings: IngestLoop.Settings

    func run() async throws {
        let settings = self.settings
        let logger = settings.logger
        try await withGracefulShutdownHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    do {
                        try Daemon.run(settings) { endpoints in
                            logger.notice(
                                "modalwatchd ready",
                                metadata: [
                                    "events": "\(endpoints["events"] ?? [])",
                                    "publish": "\(endpoints["publish"] ?? [])",
                                    "control": "\(endpoints["control"] ?? [])",
                                ]
                            )
                        }
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                thread.name = "modalwatch-ingest"
                thread.start()
            }
        } onGracefulShutdown: { [wakeup = settings.wakeup, settings] in
            wakeup.request(.stop)
            settings.stopDeadline.arm(limitMs: settings.configuration.stopTimeoutMs, logger: settings.logger)
        }
    }
}
