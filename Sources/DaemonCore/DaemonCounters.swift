import ControlProtocol

/// The daemon's counters as `status` and the Prometheus metrics both report them, read once from
/// their owners (the pipeline, the engine, the publishing thread, the transport, the ingest
/// connections, the store's health) on the ingest thread. `status` copies ``plain`` into its reply
/// and the metrics export those of them with a family (``StatusCounter/metricName``), so the two
/// agree once the loop has ticked.
struct DaemonCounters: Sendable {
    /// The reply's plain counters, as their owners count them.
    var plain = StatusCounters<UInt64>()
    /// The store's state, read before every count the publishing thread moves
    /// (`IngestLoop.counters()`): a reply that says ok with nothing spooled then has every stored
    /// violation in `violations_stored`. A state, not a counter.
    var historyState = StoreHealth.State.none
    /// Connections the publish and control sockets shut down past their limits, by socket.
    var connectionsRefusedBySocket: [String: UInt64] = [:]
    /// Events rejected, by `DiagnosticReason` name.
    var rejectedByReason: [String: UInt64] = [:]
    /// Violations the rate limit held back, by rule.
    var violationsRateLimitedByRule: [String: UInt64] = [:]
    /// Judgements skipped for their language, by rule, then language (rules.md, "Languages").
    var languagesSkipped: [String: [String: UInt64]] = [:]

    /// The metrics' totals: every plain counter the metrics export, then those by rule and by reason.
    var prometheusTotals: [(name: String, dimensions: [(String, String)], value: UInt64)] {
        var totals: [(name: String, dimensions: [(String, String)], value: UInt64)] = StatusCounter.allCases.compactMap
        { counter in
            counter.metricName.map { (name: $0, dimensions: [], value: plain[counter]) }
        }
        for (rule, count) in violationsRateLimitedByRule {
            totals.append(("modalwatch_violations_rate_limited_total", [("rule", rule)], count))
        }
        for (reason, count) in rejectedByReason {
            totals.append(("modalwatch_events_rejected_total", [("reason", reason)], count))
        }
        for (socket, count) in connectionsRefusedBySocket {
            totals.append(("modalwatch_connections_refused_total", [("socket", socket)], count))
        }
        for (rule, languages) in languagesSkipped {
            for (language, count) in languages {
                totals.append(("modalwatch_language_skips_total", [("rule", rule), ("language", language)], count))
            }
        }
        return totals
    }
}
