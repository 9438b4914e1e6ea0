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
        idHigh: UInt64,
        idLow: UInt64,
        fingerprint: UInt64,
        rule: UnsafeRawBufferPointer,
        app: UnsafeRawBufferPointer,
        session: UnsafeRawBufferPointer,
        severity: UnsafeRawBufferPointer,
        ts: Int64,
        observed: Int64,
        json: UnsafeRawBufferPointer
    ) throws {
        try rows.add(
            ViolationColumns(
                idHigh: idHigh,
                idLow: idLow,
                fingerprint: fingerprint,
                rule: rule,
                app: app,
                session: session,
                severity: severity,
                ts: ts,
                observed: observed,
                json: json
            )
        )
        count += 1
    }
}

extension ViolationWriter {
    /// Stores one violation as a store read it (`StoredViolation`). A violation already stored is
    /// kept once. Throws `HistoryStoreError` when its id is not 32 hex digits or its fingerprint
    /// not 16.
    public mutating func insert(_ row: StoredViolation) throws {
        guard let id = ViolationID(hex: row.id) else {
            throw HistoryStoreError("violation id '\(row.id)' is not 32 hex digits")
        }
        guard row.fingerprint.utf8.count == 16, let fingerprint = UInt64(row.fingerprint, radix: 16) else {
            throw HistoryStoreError("fingerprint '\(row.fingerprint)' of violation \(row.id) is not 16 hex digits")
        }
        var row = row
        try row.rule.withUTF8 { rule in
            try row.app.withUTF8 { app in
                try row.session.withUTF8 { session in
                    try row.severity.withUTF8 { severity in
                        try row.json.withUTF8 { json in
                            try insert(
                                idHigh: id.high,
                                idLow: id.low,
                                fingerprint: fingerprint,
                                rule: UnsafeRawBufferPointer(rule),
                                app: UnsafeRawBufferPointer(app),
                                session: UnsafeRawBufferPointer(session),
                                severity: UnsafeRawBufferPointer(severity),
                                ts: row.ts,
                                observed: row.observed,
                                json: UnsafeRawBufferPointer(json)
                            )
                        }
                    }
                }
            }
        }
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
