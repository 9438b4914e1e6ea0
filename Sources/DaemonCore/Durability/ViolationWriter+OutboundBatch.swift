import HistoryStore

extension ViolationWriter {
    /// Stores one violation of an outbound batch: its columns as the batch carries them, `json`
    /// the violation as published.
    mutating func insert(_ c: OutboundBatchReader.ViolationColumns, json: UnsafeRawBufferPointer) throws {
        try insert(
            idHigh: c.idHigh,
            idLow: c.idLow,
            fingerprint: c.fingerprint,
            rule: c.rule,
            app: c.app,
            session: c.session,
            severity: c.severity,
            ts: c.ts,
            observed: c.observed,
            json: json
        )
    }
}
