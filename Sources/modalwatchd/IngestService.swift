import DaemonCore
import Foundation
import Logging
import ServiceLifecycle

/// Runs the ingest loop on its own thread for the life of the service; a
/// graceful shutdown (SIGTERM, SIGINT) asks it to finish what it received and stop.
struct IngestService: Service {
    let loop: IngestLoop
    let wakeup: Wakeup
    let logger: Logger

    func run() async throws {
        let loop = self.loop
        let logger = self.logger
        try await withGracefulShutdownHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    do {
                        try loop.run { endpoints in
                            logger.notice("modalwatchd ready", metadata: [
                                "events": "\(endpoints["events"] ?? [])",
                                "publish": "\(endpoints["publish"] ?? [])",
                                "control": "\(endpoints["control"] ?? [])",
                            ])
                        }
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                thread.name = "modalwatch-ingest"
                thread.start()
            }
        } onGracefulShutdown: { [wakeup, loop] in
            wakeup.request(.stop)
            loop.armStopDeadline()
        }
    }
}
