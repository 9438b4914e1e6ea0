/// Writes violations to a history: one `write` call is one commit, atomic and durable when it
/// returns (the publishing thread publishes a violation only after the commit holding it).
public protocol HistoryWriting: AnyObject, Sendable {
    /// Stores in one commit whatever `body` hands to the writer it is given (which must not
    /// outlive the call). Returns the number of violations handed over. A violation already
    /// stored (the same id and `observed`: the same record handed over again) is kept once. When `body` throws, nothing of it
    /// is stored.
    @discardableResult
    func write(_ body: (inout ViolationWriter) throws -> Void) throws -> Int
}

/// Reads a history: the queries of `violations`, `session ID` and the report.
public protocol HistoryReading: AnyObject, Sendable {
    /// Violations matching `query`, newest first.
    func find(_ query: HistoryQuery) throws -> [StoredViolation]
    /// Violations matching `query` after `cursor` (nil: from the newest), newest first, in a
    /// page of at most `query.limit` rows and, past the first row, `maxBytes` of JSON.
    func findPage(_ query: HistoryQuery, after cursor: HistoryPage.Cursor?, maxBytes: Int) throws -> HistoryPage
    /// Every violation of `app` (all when nil) with event time in `[sinceTs, untilTs)`, in no
    /// particular order, with its JSON (valid only during the call), in flat memory.
    func scan(
        app: String?,
        sinceTs: Int64?,
        untilTs: Int64?,
        _ body: (ScannedViolation, UnsafeRawBufferPointer) throws -> Void
    ) throws
    /// Violations stored.
    func count() throws -> Int
}

/// Applies a retention to a history.
public protocol HistoryRetaining: AnyObject, Sendable {
    /// The most one `prune` call deletes.
    var pruneSlice: Int { get }
    /// Deletes, oldest first and at most `pruneSlice` in one short transaction, what was observed
    /// more than `maxAgeMs` before `now` and, past the newest `maxRows`, the oldest. Returns
    /// violations deleted: `pruneSlice` says more may be left, for the next call.
    @discardableResult
    func prune(now: Int64, maxAgeMs: Int64?, maxRows: Int?) throws -> Int
}

extension HistoryWriting {
    /// Writes a batch in one transaction. A violation already stored (same id: a replay) is kept once.
    /// Throws `HistoryStoreError` when an id is not 32 hex digits or a fingerprint not 16.
    public func insert(_ rows: [StoredViolation]) throws {
        guard !rows.isEmpty else { return }
        try write { writer in
            for row in rows { try writer.insert(row) }
        }
    }
}

/// A history store: what the daemon, the CLI and the control thread need of one. `ViolationHistory`
/// (SQLite, one file in the state directory) is one; another database is another implementation
/// of these three protocols.
public typealias HistoryStoring = HistoryWriting & HistoryReading & HistoryRetaining
