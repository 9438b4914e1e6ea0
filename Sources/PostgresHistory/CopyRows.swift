import ByteBasics
import HistoryStore

/// The rows of one commit as `COPY` text for `modalwatch_incoming` (`CopyText`), appended as
/// `ViolationWriter` hands them over: the ordinal, then the written columns in the schema's order.
/// Its buffer is kept from one commit to the next.
final class CopyRows: ViolationRows {
    /// The `COPY` text so far.
    private(set) var bytes: [UInt8] = []
    private var ordinal: Int64 = 0

    init() {
        bytes.reserveCapacity(1 << 16)
    }

    /// Empty, for the next commit.
    func reset() {
        bytes.removeAll(keepingCapacity: true)
        ordinal = 0
    }

    func add(_ row: ViolationColumns) throws {
        CopyText.appendField(ordinal, to: &bytes)
        CopyText.endField(&bytes)
        HexDigits.append(row.idHigh, to: &bytes)
        HexDigits.append(row.idLow, to: &bytes)
        CopyText.endField(&bytes)
        CopyText.appendField(row.ts, to: &bytes)
        CopyText.endField(&bytes)
        CopyText.appendField(row.observed, to: &bytes)
        CopyText.endField(&bytes)
        CopyText.appendField(row.rule, to: &bytes)
        CopyText.endField(&bytes)
        CopyText.appendField(row.severity, to: &bytes)
        CopyText.endField(&bytes)
        CopyText.appendField(row.app, to: &bytes)
        CopyText.endField(&bytes)
        CopyText.appendField(row.session, to: &bytes)
        CopyText.endField(&bytes)
        HexDigits.append(row.fingerprint, to: &bytes)
        CopyText.endField(&bytes)
        CopyText.appendField(row.json, to: &bytes)
        CopyText.endRow(&bytes)
        ordinal += 1
    }
}
