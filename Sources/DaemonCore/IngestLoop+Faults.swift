import CRuleGuard
import Foundation
import Glibc
import Logging

/// Module faults in `status` and `rules`, and the stop deadline (docs/RELIABILITY.md).
extension IngestLoop {
    /// `rules_quarantined`: each rule in quarantine with its module, fault, event and since when.
    func quarantineFields() -> [String: Any] {
        let entries = (faultGuard?.quarantined.values.sorted { $0.rule < $1.rule }) ?? []
        return ["rules_quarantined": entries.map {
            ["rule": $0.rule, "module": $0.module, "fault": $0.fault, "event": $0.event, "since": $0.since] as [String: Any]
        }]
    }

    /// Why `rule` is in quarantine, or nil.
    func quarantineReason(of rule: String) -> String? {
        faultGuard?.quarantined[rule].map { "\($0.fault) on \($0.event)" }
    }

    /// Called when a graceful stop is asked for: if the stop has not finished within
    /// `stop_timeout` (a rule that never returns, a store that never answers), the process
    /// ends anyway (exit 1), a rule call still running marked hung so that it is quarantined.
    public func armStopDeadline() {
        let limitMs = configuration.stopTimeoutMs
        let logger = self.logger
        let guardian = faultGuard
        let thread = Thread {
            usleep(UInt32(min(limitMs, 4_000_000) * 1000))
            var metadata: Logger.Metadata = ["stop_timeout_ms": "\(limitMs)"]
            if let guardian, let culprit = guardian.markHung(generation: mw_marker_generation(guardian.marker)) {
                metadata["module"] = "\(culprit.module)"
                metadata["rule"] = "\(culprit.rule)"
                metadata["event"] = "\(culprit.event)"
            }
            logger.critical("the graceful stop did not finish within stop_timeout; ending the process", metadata: metadata)
            _exit(1)
        }
        thread.name = "mw-stop-deadline"
        thread.start()
    }
}
