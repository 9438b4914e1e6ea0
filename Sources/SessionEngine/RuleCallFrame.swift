import ModalwatchABI

/// What a rule call's `ctx` points to: the engine, and the session, rule and event the call
/// judges. The host services (`mw_host`) find all of them through the call, plain values and
/// pointers, with no reference counting. Written by `Engine.judge` around each call.
struct RuleCallFrame {
    /// The engine (alive for the whole call: it is judging).
    let engine: Unmanaged<Engine>
    /// The session judged.
    var session: Session?
    /// The rule called: its entry in the app's profile, which outlives the call.
    var dispatch: UnsafePointer<RuleProfile.Dispatch>?
    /// The event judged.
    var event: UnsafePointer<mw_event>?
}
