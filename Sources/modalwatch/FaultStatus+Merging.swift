import ControlProtocol

/// The fault fields of several daemons' `status` as one (`StatusReply.merged`; their plain
/// counters are merged with the reply's): holds the longest of any daemon, refusals by socket
/// summed, quarantined rules each daemon's (once each).
extension FaultStatus {
    /// Adds another daemon's fault fields to these.
    mutating func merge(_ other: FaultStatus) {
        if other.controlHoldMaxMicros > controlHoldMaxMicros || controlHoldMaxRequest == nil {
            controlHoldMaxMicros = max(controlHoldMaxMicros, other.controlHoldMaxMicros)
            controlHoldMaxRequest = other.controlHoldMaxRequest ?? controlHoldMaxRequest
        }
        controlHoldMaxByRequest.merge(other.controlHoldMaxByRequest, uniquingKeysWith: max)
        controlHoldCPUMaxByRequest.merge(other.controlHoldCPUMaxByRequest, uniquingKeysWith: max)
        // Healthy when every daemon that keeps a history is; the worst state (one daemon failing
        // makes the whole failing; `none` only when none keeps a history).
        if other.historyState != "none" {
            historyHealthy = (historyState == "none" || historyHealthy) && other.historyHealthy
        }
        let states = ["none", "ok", "failing"]
        if (states.firstIndex(of: other.historyState) ?? 0) > (states.firstIndex(of: historyState) ?? 0) {
            historyState = other.historyState
        }
        historyError = historyError ?? other.historyError
        connectionsRefusedBySocket.merge(other.connectionsRefusedBySocket, uniquingKeysWith: +)
        // The oldest of any daemon's newest checkpoint: what a crash of every daemon would lose at most.
        if let age = other.checkpointAgeSeconds { checkpointAgeSeconds = max(checkpointAgeSeconds ?? age, age) }
        for rule in other.rulesQuarantined where !rulesQuarantined.contains(rule) { rulesQuarantined.append(rule) }
    }
}
