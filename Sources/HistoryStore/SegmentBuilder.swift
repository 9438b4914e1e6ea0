import ByteBasics
import Glibc

/// The segment of one commit as `ViolationWriter` fills it: the records (`SegmentFormat`), the
/// distinct apps, rules and sessions in them (the posting keys), their bounds of time, and the keys
/// of the violations in it (so that a replay within the commit, or of one stored lately, is kept
/// once). Its buffers are kept from one commit to the next: filling it allocates nothing once
/// they have grown to the commits' size.
package final class SegmentBuilder {
    /// Format byte, then the records, in the first `length` bytes (the rest is room for more:
    /// a record is copied in place, the array grown by doubling only when it is full).
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    /// Bytes of `bytes` in use.
    @exclusivity(unchecked) private var length = 1
    /// Records in `bytes`.
    @exclusivity(unchecked) package private(set) var count = 0
    /// Violations handed over (records plus replays left out).
    @exclusivity(unchecked) private(set) var handed = 0
    /// Wall-clock bounds of the records (ms): the first's, the last's, the largest.
    @exclusivity(unchecked) private(set) var firstObserved: Int64 = 0, lastObserved: Int64 = 0, maxObserved: Int64 = .min
    /// Event-time bounds of the records (ms).
    @exclusivity(unchecked) private(set) var minTs: Int64 = .max, maxTs: Int64 = .min
    /// Distinct apps and rules: `first`/`second` are the start and length of the text in `bytes`.
    @exclusivity(unchecked) private(set) var apps = KeyTable(), rules = KeyTable()
    /// Distinct sessions by their FNV-1a hash (the session posting's key).
    @exclusivity(unchecked) private(set) var sessions = KeyTable()
    /// For each record: its index in the segment and byte offset in `records` (after the format
    /// byte: the offset in `bytes`), and the previous record of the same session (-1: none).
    @exclusivity(unchecked) private var recordStarts: [UInt32] = [], previousOfSession: [Int32] = []
    /// For each entry of `sessions`: its newest record so far.
    @exclusivity(unchecked) private var newestOfSession: [Int32] = []
    /// Keys of this segment's records (`RecentIDs.mix`).
    @exclusivity(unchecked) private var ids = KeyTable()
    /// A buffer the store reuses to write the session set (`sessionSet`).
    @exclusivity(unchecked) var scratch: [UInt8] = []
    /// The session entries' hashes and indexes, sorted by hash for `sessionSet`.
    @exclusivity(unchecked) private var sortedSessions: [(hash: UInt64, entry: Int32)] = []
    /// The session filter of bucket `filterBucket` as this writer last wrote it (nil: not read
    /// yet). A commit that failed may have left bits of its sessions set: the filter then holds
    /// more than the stored segments, which only makes a query read a bucket for nothing.
    @exclusivity(unchecked) var filterBucket: Int64?
    @exclusivity(unchecked) var filter = [UInt8](repeating: 0, count: SessionFilter.byteCount)
    /// Whether `filter` holds sessions not written to the file yet (`ViolationHistory.writeFilter`).
    @exclusivity(unchecked) var filterUnwritten = false
    /// Keys stored by earlier commits.
    @exclusivity(unchecked) private var recent = RecentIDs()

    package init() {
        bytes = [UInt8](repeating: 0, count: 1 << 16)
        reset()
    }

    /// Empties it for the next commit.
    package func reset() {
        bytes[0] = SegmentFormat.plain
        length = 1
        count = 0
        handed = 0
        firstObserved = 0
        lastObserved = 0
        maxObserved = .min
        minTs = .max
        maxTs = .min
        apps.removeAll()
        rules.removeAll()
        sessions.removeAll()
        ids.removeAll()
        recordStarts.removeAll(keepingCapacity: true)
        previousOfSession.removeAll(keepingCapacity: true)
        newestOfSession.removeAll(keepingCapacity: true)
    }

    /// After the commit of this segment: its keys count as stored.
    package func committed() {
        for entry in ids.entries { recent.insert(entry.hash) }
    }

    /// Leaves out the records whose keys earlier commits stored (a replay), once every violation of
    /// the commit is appended. The keys are looked up in `recent` (a table of megabytes, so each
    /// lookup is likely a cache miss) one after another with nothing depending on the previous
    /// one, so that the misses of a commit overlap instead of costing one each. A replay is rare:
    /// then the segment is built again without those records.
    func dropStoredLately() throws {
        var stored = 0
        for entry in ids.entries where recent.contains(entry.hash) { stored += 1 }
        guard stored > 0 else { return }
        let handedOver = handed
        let records = withBytes { Array($0) }
        reset()
        try records.withUnsafeBytes { all in
            try appendRecords(of: all) { !recent.contains(RecentIDs.mix(idHigh: $0.idHigh, idLow: $0.idLow, ts: $0.ts)) }
        }
        handed = handedOver
    }

    /// Remembers a key stored earlier (the newest segments, read when the writer opens the file).
    func rememberStored(idHigh: UInt64, idLow: UInt64, ts: Int64) {
        recent.insert(RecentIDs.mix(idHigh: idHigh, idLow: idLow, ts: ts))
    }

    /// Appends one violation, unless its key (id and ts) is in this segment. Keys stored by earlier
    /// commits are left out afterwards, for the whole segment at once (`dropStoredLately`).
    func append(
        idHigh: UInt64, idLow: UInt64, fingerprint: UInt64, rule: UnsafeRawBufferPointer, app: UnsafeRawBufferPointer,
        session: UnsafeRawBufferPointer, severity: UnsafeRawBufferPointer, ts: Int64, observed: Int64,
        json: UnsafeRawBufferPointer
    ) throws {
        try SegmentFormat.check(severity: severity.count, rule: rule.count, app: app.count, session: session.count)
        handed += 1
        let key = RecentIDs.mix(idHigh: idHigh, idLow: idLow, ts: ts)
        guard ids.insert(KeyTable.Entry(hash: key, first: 0, second: 0), matches: { _ in true }) else { return }
        let start = length
        let size = SegmentFormat.recordBytes(
            severity: severity.count, rule: rule.count, app: app.count, session: session.count, json: json.count)
        if start + size > bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(size, bytes.count))) }
        bytes.withUnsafeMutableBytes { all in
            SegmentFormat.write(
                to: all.baseAddress! + start, idHigh: idHigh, idLow: idLow, fingerprint: fingerprint, ts: ts, observed: observed,
                severity: severity, rule: rule, app: app, session: session, json: json)
        }
        length = start + size
        if count == 0 { firstObserved = observed }
        count += 1
        lastObserved = observed
        maxObserved = max(maxObserved, observed)
        minTs = min(minTs, ts)
        maxTs = max(maxTs, ts)
        // The texts' places in `bytes`: after the header, severity, rule, app, session.
        let ruleStart = start + SegmentFormat.headerBytes + severity.count
        let appStart = ruleStart + rule.count
        let sessionStart = appStart + app.count
        remember(rule, at: ruleStart, in: &rules)
        remember(app, at: appStart, in: &apps)
        let sessionHash = FNV1a64.hash(session)
        let record = Int32(recordStarts.count)
        recordStarts.append(UInt32(start))
        let (entry, inserted) = sessions.place(
            KeyTable.Entry(hash: sessionHash, first: UInt64(sessionStart), second: UInt64(session.count)), matches: { _ in true })
        if inserted {
            newestOfSession.append(record)
            previousOfSession.append(-1)
        } else {
            previousOfSession.append(newestOfSession[entry])
            newestOfSession[entry] = record
        }
    }

    /// The segment's session set (`SessionSet`) into `scratch`: its distinct session hashes
    /// ascending, and for each the places of its records, oldest first.
    func sessionSet() {
        sortedSessions.removeAll(keepingCapacity: true)
        for (index, entry) in sessions.entries.enumerated() { sortedSessions.append((entry.hash, Int32(index))) }
        sortedSessions.withUnsafeMutableBufferPointer { $0.sort { $0.hash < $1.hash } }
        let n = sortedSessions.count
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: repeatElement(0, count: 4 + n * 12 + count * 8))
        scratch.withUnsafeMutableBytes { out in
            out.storeBytes(of: UInt32(n).littleEndian, toByteOffset: 0, as: UInt32.self)
            var places = 0
            let placesStart = 4 + n * 12
            for (index, session) in sortedSessions.enumerated() {
                out.storeBytes(of: session.hash.littleEndian, toByteOffset: 4 + index * 8, as: UInt64.self)
                // The session's records newest first along the chain: written from its last place back.
                var length = 0
                var record = newestOfSession[Int(session.entry)]
                while record >= 0 {
                    length += 1
                    record = previousOfSession[Int(record)]
                }
                places += length
                var at = placesStart + places * 8
                record = newestOfSession[Int(session.entry)]
                while record >= 0 {
                    at -= 8
                    out.storeBytes(of: UInt32(record).littleEndian, toByteOffset: at, as: UInt32.self)
                    out.storeBytes(of: recordStarts[Int(record)].littleEndian, toByteOffset: at + 4, as: UInt32.self)
                    record = previousOfSession[Int(record)]
                }
                out.storeBytes(of: UInt32(places).littleEndian, toByteOffset: 4 + n * 8 + index * 4, as: UInt32.self)
            }
        }
    }

    /// Sets the bits of `segment`'s sessions in `filter` (this builder's).
    func addSessionsToFilter(of segment: SegmentBuilder) {
        let entries = segment.sessions.entries
        filter.withUnsafeMutableBytes { bits in
            for entry in entries { SessionFilter.insert(entry.hash, into: bits) }
        }
    }

    /// Empties it and appends the records of a stored segment again (`records`, after the format
    /// byte as `SegmentRecords` reads them), so that its keys and session set are the segment's.
    func refill(from records: UnsafeRawBufferPointer) throws {
        reset()
        try appendRecords(of: records)
    }

    /// Appends the records of a stored segment (its `records` column) after those it holds, those
    /// `keep` takes.
    func appendRecords(of records: UnsafeRawBufferPointer, where keep: (SegmentRecord) -> Bool = { _ in true }) throws {
        for record in SegmentRecords(records) where keep(record) {
            try append(
                idHigh: record.idHigh, idLow: record.idLow, fingerprint: record.fingerprint, rule: record.rule,
                app: record.app, session: record.session, severity: record.severity, ts: record.ts,
                observed: record.observed, json: record.json)
        }
    }

    /// Calls `body` with the segment's bytes (valid only during the call).
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
    }

    private func remember(_ text: UnsafeRawBufferPointer, at start: Int, in table: inout KeyTable) {
        let hash = Self.wordHash(text)
        _ = bytes.withUnsafeBytes { all in
            table.insert(KeyTable.Entry(hash: hash, first: UInt64(start), second: UInt64(text.count))) { existing in
                Int(existing.second) == text.count
                    && memcmp(all.baseAddress! + Int(existing.first), all.baseAddress! + start, text.count) == 0
            }
        }
    }

    /// A hash of `text` for the apps' and rules' tables of one commit (kept in memory only): 8 bytes
    /// a step, each multiplied in and mixed, the length in the seed.
    @inline(__always)
    static func wordHash(_ text: UnsafeRawBufferPointer) -> UInt64 {
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(text.count)
        var at = 0
        while at + 8 <= text.count {
            hash = (hash ^ UInt64(littleEndian: text.loadUnaligned(fromByteOffset: at, as: UInt64.self))) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            at += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while at < text.count {
            tail |= UInt64(text[at]) << shift
            shift += 8
            at += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }
}
