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
    public var rule: String {
        switch names {
        case .engine(let template, _): template._withUnsafeGuaranteedRef { $0.rule }
        case .given(let rule, _, _): rule
        }
    }
    /// A hash of the rule id that stands for it (to count by rule without hashing the id again).
    public let ruleSeed: UInt64
    /// The rule's module.
    public var module: String {
        switch names {
        case .engine(let template, _): template._withUnsafeGuaranteedRef { $0.module }
        case .given(_, let module, _): module
        }
    }
    /// The severity in force.
    public let severity: Severity
    /// The bundle id.
    public var app: String {
        switch names {
        case .engine(_, let app): app._withUnsafeGuaranteedRef { $0.name }
        case .given(_, _, let app): app
        }
    }
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
    /// Where the rule id, the module and the app come from.
    private let names: Names

    /// The rule id, module and app: from the engine's template and app, unretained (they
    /// outlive the `EngineOutput` call, and a name is copied only when a consumer reads it),
    /// or given as strings.
    private enum Names {
        case engine(Unmanaged<ViolationTemplate>, Unmanaged<AppState>)
        case given(rule: String, module: String, app: String)
    }

    /// A violation of the engine's: names read from `template` and `app` when asked for.
    init(
        topic: UnsafeRawBufferPointer,
        json: UnsafeRawBufferPointer,
        template: ViolationTemplate,
        app: AppState,
        session: UnsafeRawBufferPointer,
        ts: Int64,
        observed: Int64,
        idHigh: UInt64,
        idLow: UInt64,
        fingerprint: UInt64
    ) {
        self.init(
            topic: topic,
            json: json,
            names: .engine(Unmanaged.passUnretained(template), Unmanaged.passUnretained(app)),
            ruleSeed: template.seed,
            severity: template.severity,
            session: session,
            ts: ts,
            observed: observed,
            idHigh: idHigh,
            idLow: idLow,
            fingerprint: fingerprint
        )
    }

    /// A violation with its names given (tests, and outputs that make one themselves).
    init(
        topic: UnsafeRawBufferPointer,
        json: UnsafeRawBufferPointer,
        rule: String,
        ruleSeed: UInt64,
        module: String,
        severity: Severity,
        app: String,
        session: UnsafeRawBufferPointer,
        ts: Int64,
        observed: Int64,
        idHigh: UInt64,
        idLow: UInt64,
        fingerprint: UInt64
    ) {
        self.init(
            topic: topic,
            json: json,
            names: .given(rule: rule, module: module, app: app),
            ruleSeed: ruleSeed,
            severity: severity,
            session: session,
            ts: ts,
            observed: observed,
            idHigh: idHigh,
            idLow: idLow,
            fingerprint: fingerprint
        )
    }

    private init(
        topic: UnsafeRawBufferPointer,
        json: UnsafeRawBufferPointer,
        names: Names,
        ruleSeed: UInt64,
        severity: Severity,
        session: UnsafeRawBufferPointer,
        ts: Int64,
        observed: Int64,
        idHigh: UInt64,
        idLow: UInt64,
        fingerprint: UInt64
    ) {
        self.topic = topic
        self.json = json
        self.names = names
        self.ruleSeed = ruleSeed
        self.severity = severity
        self.session = session
        self.ts = ts
        self.observed = observed
        self.idHigh = idHigh
        self.idLow = idLow
        self.fingerprint = fingerprint
    }
}

/// Not `Sendable`: its buffers are valid only during the `EngineOutput` call.
@available(*, unavailable)
extension EmittedViolation: Sendable {}
