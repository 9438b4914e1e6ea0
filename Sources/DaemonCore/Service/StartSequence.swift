import Logging

/// The daemon's start-up as named steps, each with its undo (the model is swift-service-lifecycle's
/// `ServiceGroup`): a step that throws undoes the steps done before it, the last first, and its
/// error names the step and keeps its cause (`DaemonError.step`). Each step done is logged by name.
struct StartSequence {
    /// A step done, and what takes it back.
    private struct Done {
        var name: String
        var undo: () -> Void
    }

    private let logger: Logger
    private var done: [Done] = []

    /// A sequence that logs to `logger`.
    init(logger: Logger) {
        self.logger = logger
    }

    /// The names of the steps done so far, in order.
    var stepsDone: [String] { done.map(\.name) }

    /// Runs the step `name`; on an error, undoes every step done so far and throws the error,
    /// naming `name`. `undo` takes the step's result back when a later step fails.
    mutating func step<Result>(
        _ name: String,
        _ body: () throws(DaemonError) -> Result,
        undo: @escaping (Result) -> Void = { _ in }
    ) throws(DaemonError) -> Result {
        let result: Result
        do {
            result = try body()
        } catch {
            logger.debug(
                "start-up step failed; undoing the steps before it",
                metadata: [
                    "step": "\(name)", "undone": "\(done.reversed().map(\.name).joined(separator: ", "))",
                ]
            )
            undoAll()
            throw error.during(name)
        }
        done.append(Done(name: name, undo: { undo(result) }))
        logger.info("start-up step done", metadata: ["step": "\(name)"])
        return result
    }

    /// Undoes every step done, the last first, and forgets them.
    mutating func undoAll() {
        while let step = done.popLast() { step.undo() }
    }
}
