/// Hands violations to a history inside `HistoryWriting.write`: each one goes to the store's
/// commit as it is handed over (a prepared insert in SQLite, a `COPY` row in PostgreSQL), from
/// the caller's bytes, with no `String` built. Valid only during the `write` call that made it.
public struct ViolationWriter: ~Copyable {
    private let rows: any ViolationRows

    /// Violations handed to `insert` so far.
    public private(set) var count = 0

    package init(rows: any ViolationRows) {
        self.rows = rows
    }

    /// Stores one violation: `idHigh`/`idLow` and `fingerprint` as they are in the published
    /// JSON (32 and 16 hex digits, most significant first); the text fields as UTF-8 bytes;
    /// `json` the violation exactly as published. A violation already stored (the same id and
    /// `observed`: the same record handed over again) is kept once.
    public mutating func insert(
        idHigh: UInt64, idLow: UInt64, fingerprint: UInt64,
        rule: UnsafeRawBufferPointer, app: UnsafeRawBufferPointer, session: UnsafeRawBufferPointer,
        severity: UnsafeRawBufferPointer, ts: Int64, observed: Int64, json: UnsafeRawBufferPointer
    ) throws {
        try rows.add(
            ViolationColumns(
                idHigh: idHigh, idLow: idLow, fingerprint: fingerprint, rule: rule, app: app, session: session,
                severity: severity, ts: ts, observed: observed, json: json))
        count += 1
    }
}

/// Not `Sendable`: valid only during the `write` call that made it, on its thread.
@available(*, unavailable)
extension ViolationWriter: Sendable {}

/// The written columns of one violation's row (`HistorySchema.columns`; the generated ones come
/// from `json`), as bytes valid during one `ViolationRows.add` call.
package struct ViolationColumns {
    package var idHigh: UInt64
    package var idLow: UInt64
    package var fingerprint: UInt64
    package var rule: UnsafeRawBufferPointer
    package var app: UnsafeRawBufferPointer
    package var session: UnsafeRawBufferPointer
    package var severity: UnsafeRawBufferPointer
    package var ts: Int64
    package var observed: Int64
    package var json: UnsafeRawBufferPointer
}

/// Where a store's commit takes the rows `ViolationWriter` hands over.
package protocol ViolationRows: AnyObject {
    /// Adds one row to the commit being written.
    func add(_ row: ViolationColumns) throws
}
