import ControlProtocol
import ShardRouting

/// What `modalwatch status` warns of, and `status --check` exits 1 for.
extension StatusReply {
    /// The warnings, one sentence each, empty when there is nothing to warn of: a failing history
    /// (with its last error), each rule in quarantine, each module that failed to load, and the
    /// shards' coverage (`coverage`: buckets two daemons own, buckets none owns).
    func warnings(coverage: ShardCoverage?) -> [String] {
        var lines: [String] = []
        if faults.historyState == "failing" {
            lines.append(
                "history failing: " + (faults.historyError ?? "no error reported")
                    + (self[.violationsSpooled] > 0 ? " (\(self[.violationsSpooled]) violations spooled)" : "")
            )
        }
        for rule in faults.rulesQuarantined {
            lines.append("rule \(rule.rule) (module \(rule.module)) quarantined: \(rule.fault) on \(rule.event)")
        }
        for failure in moduleFailures { lines.append("module failed to load: \(failure)") }
        lines += coverage?.warnings ?? []
        return lines
    }
}
