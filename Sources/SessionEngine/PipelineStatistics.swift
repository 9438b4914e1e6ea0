/// Counters for what arrived and what was turned away before the engine.
public struct PipelineStatistics: Sendable, Equatable {
    /// ZeroMQ messages (or offline lines) handed in.
    public var messages: UInt64 = 0
    /// Events seen: accepted and rejected.
    public var eventsReceived: UInt64 = 0
    /// Events rejected, by reason (`malformed_json`, `missing_field`, ...).
    public var rejectedByReason: [String: UInt64] = [:]

    /// All zero.
    public init() {}

    /// Every rejection, whatever the reason.
    public var eventsRejected: UInt64 { rejectedByReason.values.reduce(0, +) }

    mutating func reject(_ reason: DiagnosticReason) {
        rejectedByReason[reason.rawValue, default: 0] += 1
    }
}
