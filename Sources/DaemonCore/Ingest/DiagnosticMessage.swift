import SessionEngine

/// The one writer of a diagnostic message: its topic `diag/APP/REASON` (`-` for no app) and its
/// object `{"v":1,"reason":…,"app":…,"session":…,"detail":…,"observed":…}` (violations.md), into
/// buffers kept from one message to the next. The ingest thread's `Outbox` and the publishing
/// thread's `Publisher` each own one.
struct DiagnosticMessage: ~Copyable {
    private var topic = JSONBuffer(capacity: 256)
    private var payload = JSONBuffer(capacity: 1024)

    /// Writes one diagnostic over the previous one.
    mutating func write(_ reason: DiagnosticReason, app: String?, session: String?, detail: String, observed: Int64) {
        topic.reset()
        topic.raw("diag/")
        topic.text(app ?? "-")
        topic.byte(0x2F)
        topic.text(reason.rawValue)
        payload.reset()
        payload.raw("{\"v\":1,\"reason\":")
        payload.string(reason.rawValue)
        payload.raw(",\"app\":")
        if let app { payload.string(app) } else { payload.raw("null") }
        payload.raw(",\"session\":")
        if let session { payload.string(session) } else { payload.raw("null") }
        payload.raw(",\"detail\":")
        payload.string(detail)
        payload.raw(",\"observed\":")
        payload.integer(observed)
        payload.byte(0x7D)
    }

    /// The topic and the object last written.
    func withBytes<R>(
        _ body: (_ topic: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        try topic.withBytes { topic in try payload.withBytes { payload in try body(topic, payload) } }
    }
}
