/// Where the engine sends what it finds. The daemon publishes (and stores);
/// `modalwatch check` prints. Called on the engine's thread.
public protocol EngineOutput: AnyObject {
    /// A violation that passed its rule's firing discipline.
    func emit(_ violation: EmittedViolation)
    /// A diagnostic about the stream; `detail` is built only if the output wants it.
    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String)
}
