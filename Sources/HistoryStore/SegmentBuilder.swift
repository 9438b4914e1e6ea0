import ByteBasics
import Glibc

/// The segment of one commit as `ViolationWriter` fills it: the records (`SegmentFormat`), the
/// distinct apps, rules and sessions in them (the posting keys), their bounds of time, and the keys
/// of the violations in it (so that a replay within the commit, or of one stored lately, is kept
/// once). Its buffers are kept from one commit to the next: filling it allocates nothing once
/// they have grown to the commits' size.
package final class SegmentBuilder {
    /// Format byte, then the records.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
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
    /// A buffer the store reuses to write postings (`sessionRecords`).
    @exclusivity(unchecked) var scratch: [UInt8] = []
    /// Keys stored by earlier commits.
    @exclusivity(unchecked) private var recent = RecentIDs()

    package init() {
        bytes.reserveCapacity(1 << 16)
        reset()
    }

    /// Empties it for the next commit.
    package func reset() {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(SegmentFormat.plain)
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

    /// Remembers a key stored earlier (the newest segments, read when the writer opens the file).
    func rememberStored(idHigh: UInt64, idLow: UInt64, ts: Int64) {
        recent.insert(RecentIDs.mix(idHigh: idHigh, idLow: idLow, ts: ts))
    }

    /// Appends one violation, unless its key (id and ts) is in this segment or was stored lately.
    func append(
        idHigh: UInt64, idLow: UInt64, fingerprint: UInt64, rule: UnsafeRawBufferPointer, app: UnsafeRawBufferPointer,
        session: UnsafeRawBufferPointer, severity: UnsafeRawBufferPointer, ts: Int64, observed: Int64,
        json: UnsafeRawBufferPointer
    ) throws {
        try SegmentFormat.check(severity: severity.count, rule: rule.count, app: app.count, session: session.count)
        handed += 1
        let key = RecentIDs.mix(idHigh: idHigh, idLow: idLow, ts: ts)
        guard !recent.contains(key) else { return }
        guard ids.insert(KeyTable.Entry(hash: key, first: 0, second: 0), matches: { _ in true }) else { return }
        let start = bytes.count
        SegmentFormat.append(
            to: &bytes, idHigh: idHigh, idLow: idLow, fingerprint: fingerprint, ts: ts, observed: observed,
            severity: severity, rule: rule, app: app, session: session, json: json)
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

    /// The session posting's `records` for entry `entry` of `sessions` into `out`: for each of the
    /// session's records, oldest first, its index in the segment and its byte offset in the segment's
    /// bytes (4 bytes each, little-endian).
    func sessionRecords(_ entry: Int, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var count = 0
        var record = newestOfSession[entry]
        while record >= 0 {
            count += 1
            record = previousOfSession[Int(record)]
        }
        out.append(contentsOf: repeatElement(0, count: count * 8))
        record = newestOfSession[entry]
        var at = count * 8
        out.withUnsafeMutableBytes { bytes in
            while record >= 0 {
                at -= 8
                bytes.storeBytes(of: UInt32(record).littleEndian, toByteOffset: at, as: UInt32.self)
                bytes.storeBytes(of: recordStarts[Int(record)].littleEndian, toByteOffset: at + 4, as: UInt32.self)
                record = previousOfSession[Int(record)]
            }
        }
    }

    /// Calls `body` with the segment's bytes (valid only during the call).
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    private func remember(_ text: UnsafeRawBufferPointer, at start: Int, in table: inout KeyTable) {
        let hash = FNV1a64.hash(text)
        _ = bytes.withUnsafeBytes { all in
            table.insert(KeyTable.Entry(hash: hash, first: UInt64(start), second: UInt64(text.count))) { existing in
                Int(existing.second) == text.count
                    && memcmp(all.baseAddress! + Int(existing.first), all.baseAddress! + start, text.count) == 0
            }
        }
    }
}
