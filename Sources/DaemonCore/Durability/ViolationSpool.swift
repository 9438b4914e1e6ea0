import Glibc
import HistoryStore
import Logging
import Posix

/// The violations the history store could not take, oldest first, as the
/// `OutboundBatch` records they came in (violations.md, the store-failure paragraph):
/// in memory up to `memoryLimit` bytes, then appended to a spill file in the state
/// directory up to `fileLimit` bytes (when that file can be written; on a full disk
/// it usually cannot). Once anything is in the file, later records go there too,
/// so the order is kept. Past both bounds a record is refused: the caller counts it.
///
/// The spill file is framed (`SpoolFileFormat`: a header, then each record with its length
/// and CRC-32) and read in slices of at most `sliceBytes` (more only for one record larger
/// than that). A damaged stretch is counted (`damagedRecords`), logged and skipped, and
/// reading goes on at the next sound frame. A file left by an earlier run is taken over at
/// start: one larger than `fileLimit`, of another version, or (in part) unreadable is set
/// aside beside it, never deleted; the unframed file of an older release is converted.
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
    /// Bytes read from the spill file at a time.
    static let sliceBytes = 1 << 20
    /// Log lines about damage per call at most; the rest are summed up in one line.
    private static let damageLinesPerCall = 5

    let logger: Logger
    /// The daemon's clock: the time in the name of a spill file set aside.
    let clock: DaemonClock
    private var memory: [UInt8] = []
    private var memoryHead = 0
    private var memoryRecords = 0
    var spill: Int32 = -1
    /// The spill file cannot take more: its directory was removed or replaced.
    var spillDetached = false
    var fileEnd = 0
    var fileHead = 0
    var fileRecords = 0
    var readBuffer: [UInt8] = []
    var frameBuffer: [UInt8] = []
    /// Damaged stretches already counted (when the file was taken over), by their start.
    var countedDamage: Set<Int> = []

    /// Damaged stretches of the spill file found so far (each lost at least one violation).
    private(set) var damagedRecords = 0
    /// Violations held.
    var count: Int { memoryRecords + fileRecords }
    /// Violations held in the spill file (they outlive the process).
    var fileRecordCount: Int { spillDetached ? 0 : fileRecords }
    /// Whether nothing is held.
    var isEmpty: Bool { count == 0 }
    /// Bytes held in memory.
    var memoryBytes: Int { memory.count - memoryHead }
    /// Bytes held in the spill file.
    var fileBytes: Int { fileEnd - fileHead }

    /// An empty spool. A spill file left by a run that ended while the store was failing is
    /// taken over: its violations are written first, in their order, once the store accepts them.
    /// A spill file set aside is named with the time on `clock`.
    init(
        memoryLimit: Int,
        fileLimit: Int,
        spillPath: String?,
        clock: DaemonClock = DaemonClock(),
        logger: Logger = Logger(label: "modalwatch.spool")
    ) {
        self.memoryLimit = memoryLimit
        self.fileLimit = fileLimit
        self.spillPath = spillPath
        self.clock = clock
        self.logger = logger
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
        return appendToFile(record)
    }

    /// Appends one record's frame to the spill file. False when it is past the bound or cannot be written.
    func appendToFile(_ record: UnsafeRawBufferPointer) -> Bool {
        guard !spillDetached, fileBytes + SpoolFileFormat.frameHeaderBytes + record.count <= fileLimit,
            openSpill(), startFileIfEmpty()
        else { return false }
        frameBuffer.removeAll(keepingCapacity: true)
        SpoolFileFormat.appendFrame(of: record, to: &frameBuffer)
        do {
            try frameBuffer.withUnsafeBytes { try Posix.writeAll(spill, $0, at: fileEnd) }
        } catch {
            // A full disk: take back the part written; the record is refused as a whole.
            try? Posix.truncate(spill, to: fileEnd)
            return false
        }
        fileEnd += frameBuffer.count
        fileRecords += 1
        return true
    }

    /// The spill file's directory was removed or replaced: the file is no longer where the next
    /// run looks. Its records are still read (the open descriptor keeps them) and written back
    /// when the store returns; new records stay in memory, and a stop counts the file's as lost.
    func detachSpillFile() {
        guard !spillDetached else { return }
        spillDetached = true
        if spill >= 0 && fileRecords == 0 {
            try? Posix.close(spill)
            spill = -1
        }
    }

    /// The directory is back (the store opened again): new records may go to a spill file
    /// there once the detached one is written back.
    func reattachSpillFileIfDrained() {
        guard spillDetached, fileRecords == 0 else { return }
        if spill >= 0 { try? Posix.close(spill) }
        spill = -1
        fileHead = 0
        fileEnd = 0
        spillDetached = false
    }

    /// At a stop: moves what only memory holds into the spill file, before the file's own records
    /// (they are older), so that the next run writes it first. Returns how many records it could
    /// not keep (no spill file, no room, an I/O error): the caller counts them as lost. Memory
    /// is empty afterwards.
    func persistMemory() -> Int {
        guard memoryRecords > 0 else { return 0 }
        let held = memoryRecords
        defer {
            memory = []
            memoryHead = 0
            memoryRecords = 0
        }
        guard let spillPath, fileLimit > 0, !spillDetached else { return held }
        let temporary = spillPath + ".new"
        var kept = 0
        do {
            let out = try Posix.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600)
            var closed = false
            defer { if !closed { try? Posix.close(out) } }
            var offset = 0
            let header = SpoolFileFormat.header
            try header.withUnsafeBytes { bytes in try Posix.writeAll(out, bytes, at: 0) }
            offset = header.count
            // The memory's records while they fit beside the file's.
            let room = fileLimit - fileBytes
            var used = 0
            try memory.withUnsafeBytes { all in
                var reader = OutboundBatchReader(UnsafeRawBufferPointer(rebasing: all[memoryHead...]))
                var start = 0
                while reader.next() != nil {
                    let record = UnsafeRawBufferPointer(
                        rebasing: all[(memoryHead + start)..<(memoryHead + reader.offset)]
                    )
                    start = reader.offset
                    guard used + SpoolFileFormat.frameHeaderBytes + record.count <= room else { break }
                    frameBuffer.removeAll(keepingCapacity: true)
                    SpoolFileFormat.appendFrame(of: record, to: &frameBuffer)
                    try frameBuffer.withUnsafeBytes { bytes in try Posix.writeAll(out, bytes, at: offset) }
                    offset += frameBuffer.count
                    used += frameBuffer.count
                    kept += 1
                }
            }
            // Then the file's frames as they are, a slice at a time.
            if spill >= 0, fileEnd > fileHead {
                var position = fileHead
                var slice = [UInt8](repeating: 0, count: Self.sliceBytes)
                while position < fileEnd {
                    let want = min(slice.count, fileEnd - position)
                    let got = try slice.withUnsafeMutableBytes { buffer in
                        try Posix.read(
                            spill,
                            into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]),
                            at: position
                        )
                    }
                    guard got > 0 else { break }
                    try slice.withUnsafeBytes { bytes in
                        try Posix.writeAll(out, UnsafeRawBufferPointer(rebasing: bytes[..<got]), at: offset)
                    }
                    offset += got
                    position += got
                }
            }
            try Posix.fsync(out)
            closed = true
            try Posix.close(out)
            try Posix.rename(temporary, spillPath)
        } catch {
            try? Posix.unlink(temporary)
            logger.error(
                "could not move the spooled violations from memory to the spill file",
                metadata: [
                    "path": "\(spillPath)", "error": "\(error)",
                ]
            )
            return held
        }
        // The new file replaced the old: the descriptor still reads the old one, so reopen.
        if spill >= 0 { try? Posix.close(spill) }
        spill = -1
        fileRecords += kept
        if openSpill() { fileHead = SpoolFileFormat.headerBytes }
        return held - kept
    }

    /// Writes the oldest records, about `maxBytes` of them, to `history` in one transaction and
    /// forgets them once it has committed. Returns how many were stored; throws the store's error
    /// (and keeps every record) when it cannot write. Damaged stretches of the spill file met on
    /// the way are counted, logged and skipped.
    func writeOldest(to history: any HistoryWriting, maxBytes: Int) throws -> Int {
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
        var want = min(fileBytes, max(maxBytes, Self.sliceBytes))
        while true {
            let read = try readSlice(at: fileHead, count: want)
            let atFileEnd = fileHead + read >= fileEnd
            var records: [Range<Int>] = []
            var damaged: [(range: Range<Int>, flaw: SpoolFileFormat.Flaw)] = []
            var consumed = 0
            var taken = 0
            readBuffer.withUnsafeBytes { all in
                let bytes = UnsafeRawBufferPointer(rebasing: all[..<read])
                scanning: while taken < maxBytes || records.isEmpty,
                    let step = SpoolFileFormat.scan(bytes, at: consumed, atFileEnd: atFileEnd)
                {
                    switch step {
                    case .record(let record, let end):
                        let start = record.baseAddress! - bytes.baseAddress!
                        records.append(start..<end)
                        taken += record.count
                        consumed = end
                    case .damaged(let start, let end, let flaw):
                        damaged.append((start..<end, flaw))
                        consumed = end
                    case .incomplete:
                        break scanning
                    }
                }
            }
            if consumed == 0 {
                // One frame larger than the slice: read it whole (it is bounded by the format).
                guard want < fileBytes else {
                    // Nothing reads as a frame up to the end: one damaged stretch, and the file is done.
                    if !countedDamage.contains(fileHead) {
                        reportDamage(at: fileHead, bytes: fileBytes, index: 1, flaw: .truncated)
                    }
                    fileRecords = 0
                    resetFile()
                    return 0
                }
                want = min(fileBytes, want * 2)
                continue
            }
            let stored = try readBuffer.withUnsafeBytes { all in
                try history.write { writer in
                    for range in records {
                        var reader = OutboundBatchReader(UnsafeRawBufferPointer(rebasing: all[range]))
                        guard case .violation(_, let payload, let c)? = reader.next() else { continue }
                        try writer.insert(c, json: payload)
                    }
                }
            }
            var newDamage = 0
            for (range, flaw) in damaged where !countedDamage.contains(fileHead + range.lowerBound) {
                newDamage += 1
                reportDamage(at: fileHead + range.lowerBound, bytes: range.count, index: newDamage, flaw: flaw)
            }
            reportDamageSummary(newDamage)
            fileHead += consumed
            fileRecords = max(0, fileRecords - records.count - newDamage)
            if fileHead >= fileEnd { fileRecords = 0 }
            if fileRecords == 0 { resetFile() }
            return stored
        }
    }

    /// Stores whole records from the start of `bytes`, at least one, until `maxBytes` are taken.
    private static func write(
        _ bytes: UnsafeRawBufferPointer,
        to history: any HistoryWriting,
        maxBytes: Int
    )
        throws -> (stored: Int, consumed: Int, records: Int)
    {
        var consumed = 0
        var records = 0
        let stored = try history.write { writer in
            var reader = OutboundBatchReader(bytes)
            while consumed < maxBytes || records == 0, let record = reader.next() {
                consumed = reader.offset
                records += 1
                guard case .violation(_, let payload, let c) = record else { continue }
                try writer.insert(c, json: payload)
            }
        }
        return (stored, consumed, records)
    }

    /// Reads up to `count` bytes of the spill file at `offset` into `readBuffer`; returns how many.
    func readSlice(at offset: Int, count: Int) throws -> Int {
        if readBuffer.count < count { readBuffer = [UInt8](repeating: 0, count: count) }
        var read = 0
        while read < count {
            let n: Int
            do {
                n = try readBuffer.withUnsafeMutableBytes { buffer in
                    try Posix.read(
                        spill,
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[read..<count]),
                        at: offset + read
                    )
                }
            } catch {
                throw HistoryStoreError("the spool's spill file could not be read: \(error)")
            }
            if n == 0 { break }
            read += n
        }
        return read
    }

    /// The file holds nothing more: emptied, so that the next record starts it afresh.
    private func resetFile() {
        if spillDetached {
            if spill >= 0 { try? Posix.close(spill) }
            spill = -1
        } else {
            try? Posix.truncate(spill, to: 0)
        }
        fileHead = 0
        fileEnd = 0
        readBuffer = []
        countedDamage = []
    }

    func openSpill() -> Bool {
        if spill >= 0 { return true }
        guard let spillPath, fileLimit > 0,
            let descriptor = try? Posix.open(spillPath, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        else {
            return false
        }
        spill = descriptor
        fileEnd = (try? Posix.fileSize(descriptor)) ?? 0
        fileHead = fileEnd > 0 ? SpoolFileFormat.headerBytes : 0
        return true
    }

    /// Writes the header into an empty file.
    func startFileIfEmpty() -> Bool {
        guard fileEnd == 0 else { return true }
        let header = SpoolFileFormat.header
        do {
            try header.withUnsafeBytes { try Posix.writeAll(spill, $0, at: 0) }
        } catch {
            try? Posix.truncate(spill, to: 0)
            return false
        }
        fileHead = header.count
        fileEnd = header.count
        return true
    }

    /// Counts one damaged stretch at `offset` of the spill file, `bytes` long, and logs it (the
    /// `index`th of this call: past `damageLinesPerCall` only counted) with the field `flaw` is in.
    func reportDamage(at offset: Int, bytes: Int, index: Int, flaw: SpoolFileFormat.Flaw) {
        damagedRecords += 1
        guard index <= Self.damageLinesPerCall else { return }
        logger.error(
            "a damaged record in the spool's spill file was skipped; the violation it held is counted as unstored",
            metadata: [
                "path": "\(spillPath ?? "-")", "offset": "\(offset)", "bytes": "\(bytes)", "field": "\(flaw.field)",
                "why": "\(flaw)",
            ]
        )
    }

    /// Sums up in one line the damaged stretches of one call past `damageLinesPerCall`.
    func reportDamageSummary(_ count: Int) {
        guard count > Self.damageLinesPerCall else { return }
        logger.error(
            "more damaged records in the spool's spill file were skipped",
            metadata: [
                "path": "\(spillPath ?? "-")", "not_logged_one_by_one": "\(count - Self.damageLinesPerCall)",
                "damaged_total": "\(damagedRecords)",
            ]
        )
    }
}
