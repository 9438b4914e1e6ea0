public import EventDecoding
public import RuleHost

/// One event's way from message bytes to verdict: decode, then judge. The
/// daemon's ingest loop and `modalwatch check` both use it, so both give the
/// same verdicts for the same stream.
public final class EventPipeline {
    /// The engine that judges.
    public let engine: Engine
    /// What arrived and what was rejected before judging.
    public private(set) var statistics = PipelineStatistics()
    private let decoder: EventDecoder
    private let output: any EngineOutput

    /// A pipeline into a new engine.
    public init(
        catalog: RuleCatalog,
        configuration: EngineConfiguration,
        output: any EngineOutput,
        limits: EventLimits = .init()
    ) {
        self.engine = Engine(catalog: catalog, configuration: configuration, output: output)
        self.decoder = EventDecoder(limits: limits)
        self.output = output
    }

    /// Decodes and judges one payload: one event, or an NDJSON batch.
    public func process(payload: UnsafeRawBufferPointer, observed: Int64) {
        statistics.messages += 1
        decoder.decode(payload) { item in
            statistics.eventsReceived += 1
            switch item {
            case .event(let event):
                engine.process(event, observed: observed, textsAreASCII: decoder.stringsArePlainASCII)
            case .rejected(let rejection):
                let reason = DiagnosticReason(rawValue: rejection.reason.rawValue) ?? .malformedJSON
                statistics.reject(reason)
                output.emitDiagnostic(reason, app: rejection.app, session: rejection.session) { rejection.detail }
            }
        }
    }

    /// Rejects a whole message before decoding (e.g. three frames, an empty frame).
    public func rejectMessage(_ reason: DiagnosticReason, detail: @autoclosure () -> String) {
        statistics.messages += 1
        statistics.eventsReceived += 1
        statistics.reject(reason)
        output.emitDiagnostic(reason, app: nil, session: nil, detail: detail)
    }

    /// Every rejection: the decoder's and the engine's.
    public var eventsRejected: UInt64 {
        statistics.eventsRejected + engine.statistics.eventsRejected + engine.statistics.eventsOfUnknownSessions
    }

    /// Every rejection by reason: the decoder's, and the engine's (`app` not matching the session:
    /// `bad_field`; an event of an unknown session without `app`: `unknown_session`).
    public var rejectedByReason: [String: UInt64] {
        var rejected = statistics.rejectedByReason
        if engine.statistics.eventsRejected > 0 {
            rejected["bad_field", default: 0] += engine.statistics.eventsRejected
        }
        if engine.statistics.eventsOfUnknownSessions > 0 {
            rejected[DiagnosticReason.unknownSession.rawValue, default: 0] += engine.statistics.eventsOfUnknownSessions
        }
        return rejected
    }
}

/// Not `Sendable`: confined to the ingest thread (or `check`'s one thread).
@available(*, unavailable)
extension EventPipeline: Sendable {}
