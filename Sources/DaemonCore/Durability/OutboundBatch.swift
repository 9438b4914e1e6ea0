import RuleHost
import SessionEngine

/// What the ingest thread hands to the publishing thread: violations and
/// diagnostics in the order they were found, packed into one byte buffer per
/// drain slice, so there is one hand-over per batch, never one per event.
///
/// Record: kind (1 violation, 2 diagnostic), topic, payload; a violation also
/// carries the columns the history stores. Integers in native byte order (the
/// buffer never leaves the process).
struct OutboundBatch: ~Copyable {
    static let violationKind: UInt8 = 1
    static let diagnosticKind: UInt8 = 2

    /// The records; a violation's JSON is written into it by the engine, straight.
    private var buffer = JSONBuffer(capacity: 1 << 16)
    private(set) var records = 0

    init() {}

    var isEmpty: Bool { records == 0 }

    /// The bytes of the records so far.
    var count: Int { buffer.count }

    /// A copy of the records' bytes (tests).
    var bytes: [UInt8] { buffer.bytes }

    /// Calls `body` with the records' bytes (valid only during the call).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withBytes(body)
    }

    mutating func reset() {
        buffer.reset()
        records = 0
    }

    /// Appends a violation whose JSON `v.json` holds.
    mutating func appendViolation(_ v: EmittedViolation) {
        appendViolation(v) { $0.raw(v.json) }
    }

    /// Appends a violation whose JSON `writeJSON` writes, once, straight into the batch
    /// (its length is written ahead and filled in after).
    mutating func appendViolation(_ v: EmittedViolation, writingJSON writeJSON: (inout JSONBuffer) -> Void) {
        buffer.byte(Self.violationKind)
        appendBlob(v.topic)
        let lengthAt = buffer.count
        appendInteger(UInt32(0))
        writeJSON(&buffer)
        buffer.setUInt32(UInt32(buffer.count - lengthAt - 4), at: lengthAt)
        appendInteger(v.idHigh)
        appendInteger(v.idLow)
        appendInteger(v.fingerprint)
        appendInteger(UInt64(bitPattern: v.ts))
        appendInteger(UInt64(bitPattern: v.observed))
        appendString(v.severity.name)
        appendString(v.app)
        appendBlob(v.session)
        appendString(v.rule)
        records += 1
    }

    mutating func appendDiagnostic(topic: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) {
        buffer.byte(Self.diagnosticKind)
        appendBlob(topic)
        appendBlob(payload)
        records += 1
    }

    private mutating func appendInteger<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value) { buffer.raw($0) }
    }

    private mutating func appendBlob(_ blob: UnsafeRawBufferPointer) {
        appendInteger(UInt32(blob.count))
        buffer.raw(blob)
    }

    private mutating func appendString(_ string: String) {
        var string = string
        string.withUTF8 { appendBlob(UnsafeRawBufferPointer($0)) }
    }
}

/// Reads an `OutboundBatch` on the publishing thread.
struct OutboundBatchReader {
    enum Record {
        case violation(topic: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer, columns: ViolationColumns)
        case diagnostic(topic: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer)
    }

    struct ViolationColumns {
        var idHigh: UInt64
        var idLow: UInt64
        var fingerprint: UInt64
        var ts: Int64
        var observed: Int64
        var severity: UnsafeRawBufferPointer
        var app: UnsafeRawBufferPointer
        var session: UnsafeRawBufferPointer
        var rule: UnsafeRawBufferPointer
    }

    private let bytes: UnsafeRawBufferPointer
    /// Where the next record starts: after a successful `next()`, the end of the record it returned.
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The next record, or nil at the end or at a damaged record (an unknown kind, a length past the end).
    mutating func next() -> Record? {
        guard offset < bytes.count else { return nil }
        let kind = bytes[offset]
        guard kind == OutboundBatch.violationKind || kind == OutboundBatch.diagnosticKind else { return nil }
        offset += 1
        guard let topic = blob(), let payload = blob() else { return nil }
        if kind == OutboundBatch.diagnosticKind { return .diagnostic(topic: topic, payload: payload) }
        guard let idHigh = integer(), let idLow = integer(), let fingerprint = integer(),
            let ts = integer(), let observed = integer(),
            let severity = blob(), let app = blob(), let session = blob(), let rule = blob()
        else { return nil }
        return .violation(
            topic: topic,
            payload: payload,
            columns: ViolationColumns(
                idHigh: idHigh,
                idLow: idLow,
                fingerprint: fingerprint,
                ts: Int64(bitPattern: ts),
                observed: Int64(bitPattern: observed),
                severity: severity,
                app: app,
                session: session,
                rule: rule
            )
        )
    }

    private mutating func integer() -> UInt64? {
        guard offset + 8 <= bytes.count else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        offset += 8
        return value
    }

    private mutating func blob() -> UnsafeRawBufferPointer? {
        guard offset + 4 <= bytes.count else { return nil }
        let count = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        offset += 4
        guard offset + count <= bytes.count else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }
}
