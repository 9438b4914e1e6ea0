/// One rule's violations in the event-time second being counted, for the per-rule rate
/// limit, and how many it held back so far.
struct RuleRate {
    /// The whole second of event time being counted (`Int64.min`: none yet).
    var second: Int64 = .min
    /// Violations let through in it.
    var count = 0
    /// Violations held back since the engine started.
    var held: UInt64 = 0
}
