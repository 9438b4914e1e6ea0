/// The bytes of a segment's `records` column: the violations of one commit, in the order they
/// were handed over, each one record.
///
/// A segment starts with one format byte (`plain`: the records follow as they are; other
/// values are reserved for compressed segments). A record, integers little-endian:
///
/// | bytes | field |
/// |---|---|
/// | 8, 8 | id, most significant half first (the published id is their 32 hex digits) |
/// | 8 | fingerprint |
/// | 8, 8 | ts, observed (ms, signed) |
/// | 2, 2, 2, 2 | lengths of severity, rule, app, session |
/// | 4 | length of the JSON |
/// | … | severity, rule, app, session, JSON (UTF-8, in that order) |
///
/// Violation `k` of a segment (from 0) has sequence number `first_seq + k`.
public enum SegmentFormat: Sendable {
    /// A segment whose records follow the format byte uncompressed.
    public static let plain: UInt8 = 1
    /// Bytes before a record's texts.
    public static let headerBytes = 8 * 5 + 2 * 4 + 4
    /// The longest severity, rule, app or session a record holds (its length is 16 bits).
    public static let maximumFieldBytes = Int(UInt16.max)

    /// Throws when a severity, rule, app or session is longer than `maximumFieldBytes`.
    static func check(severity: Int, rule: Int, app: Int, session: Int) throws {
        guard max(severity, rule, app, session) <= maximumFieldBytes else {
            throw HistoryStoreError("a violation's severity, rule, app or session is longer than the history keeps (\(maximumFieldBytes) bytes)")
        }
    }

    /// The bytes of a record with texts of these lengths.
    @inline(__always)
    static func recordBytes(severity: Int, rule: Int, app: Int, session: Int, json: Int) -> Int {
        headerBytes + severity + rule + app + session + json
    }

    /// Writes one record (its fields passed `check`) at `destination`, which has room for
    /// `recordBytes` of it.
    static func write(
        to destination: UnsafeMutableRawPointer, idHigh: UInt64, idLow: UInt64, fingerprint: UInt64, ts: Int64, observed: Int64,
        severity: UnsafeRawBufferPointer, rule: UnsafeRawBufferPointer, app: UnsafeRawBufferPointer,
        session: UnsafeRawBufferPointer, json: UnsafeRawBufferPointer
    ) {
        destination.storeBytes(of: idHigh.littleEndian, toByteOffset: 0, as: UInt64.self)
        destination.storeBytes(of: idLow.littleEndian, toByteOffset: 8, as: UInt64.self)
        destination.storeBytes(of: fingerprint.littleEndian, toByteOffset: 16, as: UInt64.self)
        destination.storeBytes(of: UInt64(bitPattern: ts).littleEndian, toByteOffset: 24, as: UInt64.self)
        destination.storeBytes(of: UInt64(bitPattern: observed).littleEndian, toByteOffset: 32, as: UInt64.self)
        destination.storeBytes(of: UInt16(severity.count).littleEndian, toByteOffset: 40, as: UInt16.self)
        destination.storeBytes(of: UInt16(rule.count).littleEndian, toByteOffset: 42, as: UInt16.self)
        destination.storeBytes(of: UInt16(app.count).littleEndian, toByteOffset: 44, as: UInt16.self)
        destination.storeBytes(of: UInt16(session.count).littleEndian, toByteOffset: 46, as: UInt16.self)
        destination.storeBytes(of: UInt32(json.count).littleEndian, toByteOffset: 48, as: UInt32.self)
        var at = destination + headerBytes
        @inline(__always) func copy(_ text: UnsafeRawBufferPointer) {
            if let base = text.baseAddress, text.count > 0 { at.copyMemory(from: base, byteCount: text.count) }
            at += text.count
        }
        copy(severity)
        copy(rule)
        copy(app)
        copy(session)
        copy(json)
    }
}

/// One record of a segment, its texts pointing into the segment's bytes.
public struct SegmentRecord {
    /// The id's halves, most significant first.
    public var idHigh: UInt64, idLow: UInt64
    /// The fingerprint.
    public var fingerprint: UInt64
    /// Event time and wall-clock time found (ms).
    public var ts: Int64, observed: Int64
    /// The texts (UTF-8).
    public var severity: UnsafeRawBufferPointer, rule: UnsafeRawBufferPointer, app: UnsafeRawBufferPointer
    /// The session id (UTF-8).
    public var session: UnsafeRawBufferPointer
    /// The violation's JSON exactly as published.
    public var json: UnsafeRawBufferPointer

    /// The record as a `StoredViolation` (ids and fingerprint as lowercase hex).
    public var stored: StoredViolation {
        StoredViolation(
            id: Self.hex(idHigh) + Self.hex(idLow), fingerprint: Self.hex(fingerprint),
            rule: String(decoding: rule, as: UTF8.self), app: String(decoding: app, as: UTF8.self),
            session: String(decoding: session, as: UTF8.self), severity: String(decoding: severity, as: UTF8.self),
            ts: ts, observed: observed, json: String(decoding: json, as: UTF8.self))
    }

    /// 16 lowercase hex digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Reads the records of a segment's bytes, in order.
public struct SegmentRecords: Sequence, IteratorProtocol {
    private let bytes: UnsafeRawBufferPointer
    private var offset: Int
    /// Set when the bytes end inside a record or the format byte is unknown.
    public private(set) var damaged = false

    /// Reads `bytes` (a segment's `records` column, format byte first).
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        offset = 1
        if bytes.first != SegmentFormat.plain { damaged = true }
    }

    /// The next record, or nil at the end (or at damage: `damaged`).
    public mutating func next() -> SegmentRecord? {
        guard !damaged, offset < bytes.count else { return nil }
        guard offset + SegmentFormat.headerBytes <= bytes.count else {
            damaged = true
            return nil
        }
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + at, as: UInt64.self)) }
        func u16(_ at: Int) -> Int { Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + at, as: UInt16.self))) }
        let severityCount = u16(40), ruleCount = u16(42), appCount = u16(44), sessionCount = u16(46)
        let jsonCount = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 48, as: UInt32.self)))
        var at = offset + SegmentFormat.headerBytes
        guard at + severityCount + ruleCount + appCount + sessionCount + jsonCount <= bytes.count else {
            damaged = true
            return nil
        }
        func take(_ count: Int) -> UnsafeRawBufferPointer {
            defer { at += count }
            return UnsafeRawBufferPointer(rebasing: bytes[at..<at + count])
        }
        let record = SegmentRecord(
            idHigh: u64(0), idLow: u64(8), fingerprint: u64(16),
            ts: Int64(bitPattern: u64(24)), observed: Int64(bitPattern: u64(32)),
            severity: take(severityCount), rule: take(ruleCount), app: take(appCount),
            session: take(sessionCount), json: take(jsonCount))
        offset = at
        return record
    }
}

/// Not `Sendable`: its texts point into bytes valid only while the segment is read.
@available(*, unavailable)
extension SegmentRecord: Sendable {}

/// Not `Sendable`: it reads bytes valid only during the caller's access to them.
@available(*, unavailable)
extension SegmentRecords: Sendable {}
