public import RuleHost

/// A violation as the engine hands it out: its topic and JSON, ready to store
/// and publish, and the fields a store or a filter needs. The buffers are valid
/// only during the `EngineOutput` call.
public struct EmittedViolation {
    /// `violation/<app>/<rule>`.
    public let topic: UnsafeRawBufferPointer
    /// The violation object, JSON (violations.md).
    public let json: UnsafeRawBufferPointer
    /// The rule id.
    public let rule: String
    /// A hash of the rule id that stands for it (to count by rule without hashing the id again).
    public let ruleSeed: UInt64
    /// The rule's module.
    public let module: String
    /// The severity in force.
    public let severity: Severity
    /// The bundle id.
    public let app: String
    /// The session id bytes.
    public let session: UnsafeRawBufferPointer
    /// Event time of the triggering event (ms).
    public let ts: Int64
    /// Wall-clock time it was found (ms).
    public let observed: Int64
    /// The violation's `id`, as two 64-bit halves (the JSON has their 32 hex digits).
    public let idHigh: UInt64
    /// The low half of the `id`.
    public let idLow: UInt64
    /// The `fingerprint` (the JSON has its 16 hex digits).
    public let fingerprint: UInt64
}

/// Not `Sendable`: its buffers are valid only during the `EngineOutput` call.
@available(*, unavailable)
extension EmittedViolation: Sendable {}
