import CRuleGuard
import Foundation
import Glibc
public import Logging
import Synchronization

/// Ends the process when a graceful stop takes too long (docs/RELIABILITY.md): SIGTERM
/// must stop the daemon within the unit's `TimeoutStopSec` whatever a rule module does.
/// `arm` is called from the signal path; after `stop_timeout` a thread of its own marks a
/// rule call still running as hung (so that it is quarantined at the next start), logs one
/// line and calls `_exit(1)`. A stop that finishes in time ends the process first.
public final class StopDeadline: Sendable {
    private let guardian = Mutex<RuleFaultGuard?>(nil)
    private let armed = Atomic<Bool>(false)

    /// A deadline not yet armed.
    public init() {}

    /// The fault guard whose marker names a rule still running at the deadline.
    func watch(_ guardian: RuleFaultGuard) {
        self.guardian.withLock { $0 = guardian }
    }

    /// Starts the countdown of `limitMs` (once; later calls do nothing).
    public func arm(limitMs: Int64, logger: Logger) {
        guard !armed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            usleep(UInt32(clamping: min(limitMs, 3_600_000) * 1000))
            var metadata: Logger.Metadata = ["stop_timeout_ms": "\(limitMs)"]
            if let guardian = guardian.withLock({ $0 }),
                let culprit = guardian.markHung(generation: mw_marker_generation(guardian.marker))
            {
                metadata["module"] = "\(culprit.module)"
                metadata["rule"] = "\(culprit.rule)"
                metadata["event"] = "\(culprit.event)"
            }
            logger.critical(
                "the graceful stop did not finish within stop_timeout; ending the process",
                metadata: metadata
            )
            _exit(1)
        }
        thread.name = "mw-stop-deadline"
        thread.start()
    }
}
