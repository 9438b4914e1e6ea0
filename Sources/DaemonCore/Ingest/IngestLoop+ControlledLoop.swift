import SessionEngine

/// The ingest loop as the control handler sees it (`ControlledLoop`).
extension IngestLoop: ControlledLoop {
    /// The pipeline's engine.
    var engine: Engine { pipeline.engine }
}
