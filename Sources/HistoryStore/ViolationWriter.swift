/// Hands violations to a history inside `HistoryWriting.write`: each one is appended to the
/// commit's segment (`SegmentFormat`: a copy of its bytes, no `String` built, nothing allocated
/// once the segment's buffer has grown), which the store writes as one row with its postings
/// when the `write` call's body returns. Valid only during the `write` call that made it.
public struct ViolationWriter: ~Copyable {
    private let segment: SegmentBuilder

    /// Violations handed to `insert` so far.
    public var count: Int { segment.handed }

    package init(segment: SegmentBuilder) {
        self.segment = segment
    }

    /// Stores one violation: `idHigh`/`idLow` and `fingerprint` as they are in the
    /// published JSON (32 and 16 hex digits, most significant first); the text
    /// fields as UTF-8 bytes; `json` the violation exactly as published.
    /// A violation already stored (the same id and `ts`: a replay) is kept once: one
    /// in this commit, or in the writer's recent ones (`RecentIDs`).
    /// Throws `HistoryStoreError` when severity, rule, app or session is longer than 65,535 bytes.
    public mutating func insert(
        idHigh: UInt64, idLow: UInt64, fingerprint: UInt64,
        rule: UnsafeRawBufferPointer, app: UnsafeRawBufferPointer, session: UnsafeRawBufferPointer,
        severity: UnsafeRawBufferPointer, ts: Int64, observed: Int64, json: UnsafeRawBufferPointer
    ) throws {
        try segment.append(
            idHigh: idHigh, idLow: idLow, fingerprint: fingerprint, rule: rule, app: app, session: session,
            severity: severity, ts: ts, observed: observed, json: json)
    }
}

/// Not `Sendable`: valid only during the `write` call that made it, on its thread.
@available(*, unavailable)
extension ViolationWriter: Sendable {}
