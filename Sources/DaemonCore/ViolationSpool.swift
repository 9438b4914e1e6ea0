import Glibc
import HistoryStore
import Posix

/// The violations the history store could not take, oldest first, as the
/// `OutboundBatch` records they came in (violations.md, the store-failure paragraph):
/// in memory up to `memoryLimit` bytes, then appended to a spill file in the state
/// directory up to `fileLimit` bytes (when that file can be written; on a full disk
/// it usually cannot). Once anything is in the file, later records go there too,
/// so the order is kept. Past both bounds a record is refused: the caller counts it.
///
/// Owned by the publishing thread. `writeOldest` moves the oldest records into the
/// history in one transaction and forgets them only once that has committed. The spill
/// file's system calls go through `Posix` (`EINTR` retried, `errno` kept).
final class ViolationSpool {
    /// Bytes held in memory at most.
    let memoryLimit: Int
    /// Bytes in the spill file at most (0: no spill file).
    let fileLimit: Int
    /// The spill file's path, or nil for none.
    let spillPath: String?

    private var memory: [UInt8] = []
    private var memoryHead = 0
    private var memoryRecords = 0
    private var spill: Int32 = -1
    private var fileEnd = 0
    private var fileHead = 0
    private var fileRecords = 0
    private var readBuffer: [UInt8] = []

    /// Violations held.
    var count: Int { memoryRecords + fileRecords }
    /// Violations held in the spill file (they outlive the process).
    var fileRecordCount: Int { fileRecords }
    /// Whether nothing is held.
    var isEmpty: Bool { count == 0 }
    /// Bytes held in memory.
    var memoryBytes: Int { memory.count - memoryHead }
    /// Bytes held in the spill file.
    var fileBytes: Int { fileEnd - fileHead }

    /// An empty spool. A spill file left by a run that ended while the store was failing is
    /// taken over: its violations are written first, in their order, once the store accepts them.
    init(memoryLimit: Int, fileLimit: Int, spillPath: String?) {
        self.memoryLimit = memoryLimit
        self.fileLimit = fileLimit
        self.spillPath = fileLimit > 0 ? spillPath : nil
        adoptLeftover()
    }

    deinit {
        if spill >= 0 { try? Posix.close(spill) }
    }

    /// Keeps one record (its bytes are copied). False when it fits in neither the memory nor the file.
    func append(_ record: UnsafeRawBufferPointer) -> Bool {
        if fileBytes == 0 && memoryBytes + record.count <= memoryLimit {
            if memoryHead > 0 && memoryHead == memory.count {
                memory.removeAll(keepingCapacity: true)
                memoryHead = 0
            }
            memory.append(contentsOf: record)
            memoryRecords += 1
            return true
        }
        guard fileBytes + record.count <= fileLimit, openSpill() else { return false }
        do {
            try Posix.writeAll(spill, record, at: fileEnd)
        } catch {
            // A full disk: take back the part written; the record is refused as a whole.
            try? Posix.truncate(spill, to: fileEnd)
            return false
        }
        fileEnd += record.count
        fileRecords += 1
        return true
    }

    /// Writes the oldest records, about `maxBytes` of them, to `history` in one transaction and
    /// forgets them once it has committed. Returns how many were stored; throws the store's error
    /// (and keeps every record) when it cannot write.
    func writeOldest(to history: ViolationHistory, maxBytes: Int) throws -> Int {
        if memoryRecords > 0 {
            let (stored, consumed, records) = try memory.withUnsafeBytes { all in
                try Self.write(UnsafeRawBufferPointer(rebasing: all[memoryHead...]), to: history, maxBytes: maxBytes)
            }
            memoryHead += consumed
            memoryRecords -= records
            if memoryRecords == 0 {
                // Give the memory back: an outage's peak is not kept for the rest of the run.
                memory = []
                memoryHead = 0
            } else if memoryHead > memory.count / 2 {
                memory.removeFirst(memoryHead)
                memoryHead = 0
            }
            return stored
        }
        guard fileRecords > 0, spill >= 0 else { return 0 }
        let want = min(fileBytes, max(maxBytes, 1 << 16))
        if readBuffer.count < want { readBuffer = [UInt8](repeating: 0, count: want) }
        var read = 0
        while read < want {
            let n: Int
            do {
                n = try readBuffer.withUnsafeMutableBytes { buffer in
                    try Posix.read(spill, into: UnsafeMutableRawBufferPointer(rebasing: buffer[read..<want]), at: fileHead + read)
                }
            } catch {
                throw HistoryStoreError("the spool's spill file could not be read: \(error)")
            }
            guard n > 0 else { throw HistoryStoreError("the spool's spill file ends at byte \(fileHead + read), before its records do") }
            read += n
        }
        let (stored, consumed, records) = try readBuffer.withUnsafeBytes { all in
            try Self.write(UnsafeRawBufferPointer(rebasing: all[..<read]), to: history, maxBytes: maxBytes)
        }
        guard records > 0 else { throw HistoryStoreError("the spool's spill file holds a damaged record at byte \(fileHead)") }
        fileHead += consumed
        fileRecords -= records
        if fileRecords == 0 {
            try? Posix.truncate(spill, to: 0)
            fileHead = 0
            fileEnd = 0
            readBuffer = []
        }
        return stored
    }

    /// Stores whole records from the start of `bytes`, at least one, until `maxBytes` are taken.
    private static func write(_ bytes: UnsafeRawBufferPointer, to history: ViolationHistory, maxBytes: Int)
        throws -> (stored: Int, consumed: Int, records: Int) {
        var consumed = 0, records = 0
        let stored = try history.write { writer in
            var reader = OutboundBatchReader(bytes)
            while consumed < maxBytes || records == 0, let record = reader.next() {
                consumed = reader.offset
                records += 1
                guard case .violation(_, let payload, let c) = record else { continue }
                try writer.insert(
                    idHigh: c.idHigh, idLow: c.idLow, fingerprint: c.fingerprint, rule: c.rule, app: c.app,
                    session: c.session, severity: c.severity, ts: c.ts, observed: c.observed, json: payload)
            }
        }
        return (stored, consumed, records)
    }

    private func openSpill() -> Bool {
        if spill >= 0 { return true }
        guard let spillPath, let descriptor = try? Posix.open(spillPath, O_RDWR | O_CREAT, mode: 0o600) else { return false }
        spill = descriptor
        return true
    }

    /// Takes over a spill file a previous run left: counts its whole records, drops a torn tail.
    private func adoptLeftover() {
        guard let spillPath, let descriptor = try? Posix.open(spillPath, O_RDWR) else { return }
        spill = descriptor
        guard let size = try? Posix.fileSize(spill), size > 0 else { return }
        var bytes = [UInt8](repeating: 0, count: size)
        var n = 0
        while n < size {
            let got = bytes.withUnsafeMutableBytes { buffer in
                try? Posix.read(spill, into: UnsafeMutableRawBufferPointer(rebasing: buffer[n...]), at: n)
            }
            guard let got, got > 0 else { break }
            n += got
        }
        guard n == size else { return }
        var whole = 0, records = 0
        bytes.withUnsafeBytes { all in
            var reader = OutboundBatchReader(all)
            while reader.next() != nil { whole = reader.offset; records += 1 }
        }
        if whole < bytes.count { try? Posix.truncate(spill, to: whole) }
        fileEnd = whole
        fileRecords = records
    }
}
