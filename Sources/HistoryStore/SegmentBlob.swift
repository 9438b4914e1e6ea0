import GRDB
import GRDBSQLite

/// Reads single records of segments through SQLite's incremental blob I/O (`sqlite3_blob_open`
/// on `segments.records`), so that a session's few violations are read without the rest of
/// their segments. Valid only inside the read that made it (the caller's `Database`).
struct SegmentBlob: ~Copyable {
    private let db: Database
    private var blob: OpaquePointer?
    private var size = 0
    /// The format byte, then the record being read.
    private var buffer: [UInt8] = []

    init(_ db: Database) {
        self.db = db
    }

    /// Points at the segment whose `first_seq` is `first`; false when there is none.
    mutating func open(_ first: Int64) throws -> Bool {
        var code: CInt
        if let blob {
            code = sqlite3_blob_reopen(blob, first)
        } else {
            guard let connection = db.sqliteConnection else { return false }
            code = sqlite3_blob_open(connection, "main", "segments", "records", first, 0, &blob)
        }
        if code != SQLITE_OK {
            // The segment was deleted (retention) since its posting was read, or the handle is unusable.
            close()
            guard code == SQLITE_ERROR else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot read a segment") }
            return false
        }
        size = Int(sqlite3_blob_bytes(blob))
        return true
    }

    /// Reads the record at `offset` of the open segment and hands it to `body`; nil when it does
    /// not read as a record (or the segment's format is not `plain`).
    mutating func record<R>(at offset: Int, _ body: (SegmentRecord) throws -> R?) throws -> R? {
        guard let blob, offset >= 1, offset + SegmentFormat.headerBytes <= size else { return nil }
        if buffer.count < 1 + SegmentFormat.headerBytes { buffer = [UInt8](repeating: 0, count: 4096) }
        buffer[0] = SegmentFormat.plain
        try read(blob, into: 1, count: SegmentFormat.headerBytes, at: offset)
        let texts = buffer.withUnsafeBytes { bytes -> Int in
            var total = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 1 + 48, as: UInt32.self)))
            for field in 0..<4 {
                total += Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 1 + 40 + field * 2, as: UInt16.self)))
            }
            return total
        }
        let length = SegmentFormat.headerBytes + texts
        guard offset + length <= size else { return nil }
        if buffer.count < 1 + length { buffer += [UInt8](repeating: 0, count: 1 + length - buffer.count) }
        try read(blob, into: 1 + SegmentFormat.headerBytes, count: texts, at: offset + SegmentFormat.headerBytes)
        return try buffer.withUnsafeBytes { bytes in
            var records = SegmentRecords(UnsafeRawBufferPointer(rebasing: bytes[0..<1 + length]))
            guard let record = records.next() else { return nil }
            return try body(record)
        }
    }

    private mutating func read(_ blob: OpaquePointer, into start: Int, count: Int, at offset: Int) throws {
        guard count > 0 else { return }
        let code = buffer.withUnsafeMutableBytes { bytes in
            sqlite3_blob_read(blob, bytes.baseAddress! + start, CInt(count), CInt(offset))
        }
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot read a segment") }
    }

    /// Closes the handle.
    mutating func close() {
        if let blob { sqlite3_blob_close(blob) }
        blob = nil
    }
}
