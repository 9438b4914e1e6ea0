import ByteBasics
import GRDB

/// One page of the history, newest first, and where the next one starts.
public struct HistoryPage: Sendable {
    /// Where a page starts: after this row, in newest-first order.
    public struct Cursor: Sendable, Equatable {
        /// The `observed` of the last row of the previous page (a v1 or v2 file's order; a v3
        /// file's order is the rowid's alone).
        public var observed: Int64
        /// Its rowid (the tie-break of newest-first).
        public var rowid: Int64

        /// A cursor.
        public init(observed: Int64, rowid: Int64) {
            self.observed = observed
            self.rowid = rowid
        }

        /// `observed.rowid`, as the control socket passes it.
        public var text: String { "\(observed).\(rowid)" }

        /// Reads `observed.rowid`; nil when it is not that, or when either number is outside what a
        /// history holds (`observed` a time of `EventTime`'s range, `rowid` from 1 to
        /// `ViolationHistory.maxSequence`): a cursor comes from outside, over the control socket.
        public init?(text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, let observed = Int64(parts[0]), let rowid = Int64(parts[1]),
                (EventTime.minMs...EventTime.maxMs).contains(observed),
                (1...ViolationHistory.maxSequence).contains(rowid)
            else { return nil }
            self.init(observed: observed, rowid: rowid)
        }
    }

    /// The rows, newest first.
    public var rows: [StoredViolation]
    /// Where the next page starts, or nil when this one ended the matches.
    public var next: Cursor?

    /// A page of `rows`, the next starting at `next`.
    public init(rows: [StoredViolation], next: Cursor?) {
        self.rows = rows
        self.next = next
    }
}
