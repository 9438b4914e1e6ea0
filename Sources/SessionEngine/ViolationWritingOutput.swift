/// An output that keeps each violation's JSON in a buffer of its own (the daemon's hand-over
/// batch, `check`'s list): the engine writes the object straight into that buffer, once,
/// instead of into a scratch buffer for the output to copy.
public protocol ViolationWritingOutput: EngineOutput {
    /// A violation that passed its rule's firing discipline. `violation.json` is empty: `write`
    /// appends the violation object (violations.md) at the end of the buffer it is given; the
    /// output calls it exactly once, during this call.
    func emit(_ violation: EmittedViolation, writingJSON write: (inout JSONBuffer) -> Void)
}
