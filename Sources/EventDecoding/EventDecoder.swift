import ModalwatchABI

/// Decodes wire format v1 payloads (events.md, event.schema.json) into `mw_event`s.
///
/// A hand-written JSON scanner over the payload bytes: no Foundation, and no heap allocation per event
/// (strings point into the payload, or into a reusable arena when they hold escapes; buttons go to
/// reusable buffers). Rejections are built, with their strings, only on the error path.
///
/// Not thread-safe: one decoder belongs to one thread. What it hands to the callback is valid only
/// during the callback.
public final class EventDecoder {
    /// The limits in force.
    public let limits: EventLimits
    /// True, during the callback for an event, when the readers' fast paths read every string
    /// value of its known fields, and so every one is plain printable ASCII (no escape, no byte of
    /// 0x80 or above): its texts are all ASCII, and a judge of their language need not read them.
    /// False when one went through the validating scan.
    @inlinable
    public var stringsArePlainASCII: Bool { storage.pointee.validatedStrings == 0 }
    /// The scratch storage (its buffers: `deinit` frees them).
    private let scratch: EventScratch
    /// A copy of `scratch` (the same buffers) behind a pointer, so that a reader refers to it
    /// without copying it.
    @usableFromInline let storage: UnsafeMutablePointer<EventScratch>

    /// A decoder with its scratch storage allocated for `limits`.
    public init(limits: EventLimits = .init()) {
        self.limits = limits
        scratch = EventScratch(limits: limits)
        storage = .allocate(capacity: 1)
        storage.initialize(to: scratch)
    }

    deinit {
        scratch.deallocate()
        storage.deallocate()
    }

    /// Decodes one payload: one event object (possibly pretty-printed), or an NDJSON batch of them.
    /// For each event, in order, calls `body` with the event or its rejection.
    ///
    /// - An empty or whitespace-only payload is one malformed_json rejection; a payload over
    ///   `maxPayloadBytes` is one too_large rejection.
    /// - A batch holds at most `maxBatchEvents` events; each further one is rejected too_large.
    /// - After malformed JSON the decoder goes on at the next line that starts with `{`.
    public func decode(_ payload: UnsafeRawBufferPointer, _ body: (DecodedItem) -> Void) {
        // The reader's offsets are 32 bits (`FieldSlot`): no limit goes past that.
        let limit = min(limits.maxPayloadBytes, Int(Int32.max))
        guard payload.count <= limit else {
            body(
                .rejected(
                    Rejection(
                        reason: .tooLarge,
                        field: nil,
                        detail: "payload is \(payload.count) bytes, over the limit of \(limit)",
                        index: 0,
                        offset: 0
                    )
                )
            )
            return
        }
        guard let raw = payload.baseAddress, payload.count > 0 else {
            body(.rejected(Self.emptyPayload))
            return
        }
        var reader = EventReader(base: raw.assumingMemoryBound(to: UInt8.self), count: payload.count, storage: storage)
        reader.scanner.skipWhitespace()
        if reader.scanner.atEnd {
            body(.rejected(Self.emptyPayload))
            return
        }
        var index = 0
        while !reader.scanner.atEnd {
            do {
                storage.pointee.validatedStrings = 0
                try reader.readEvent(index: index)
                body(.event(UnsafePointer(storage.pointee.event)))
                reader.scanner.pos = reader.resumeAt
            } catch {
                var error = error
                if index >= limits.maxBatchEvents {  // past the limit, every event is too_large, even malformed ones
                    error = DecodeError(
                        reason: .tooLarge,
                        problem: .batchFull(limit: limits.maxBatchEvents),
                        offset: reader.eventStart
                    )
                }
                body(.rejected(rejection(error, index: index, reader: reader)))
                reader.scanner.pos = reader.resumeAt >= 0 ? reader.resumeAt : reader.resynchronize()
            }
            index += 1
            reader.scanner.skipWhitespace()
        }
    }

    /// Decodes a payload given as an array of bytes (a convenience over the raw-buffer form).
    public func decode(_ payload: [UInt8], _ body: (DecodedItem) -> Void) {
        payload.withUnsafeBytes { decode($0, body) }
    }

    private static let emptyPayload = Rejection(
        reason: .malformedJSON,
        field: nil,
        detail: "invalid JSON: empty payload",
        index: 0,
        offset: 0
    )

    /// The public rejection for an internal error (the error path: allocates).
    private func rejection(_ error: DecodeError, index: Int, reader: EventReader) -> Rejection {
        let (session, app) = reader.sessionAndApp()
        return Rejection(
            reason: error.reason,
            field: error.field.map(\.description),
            detail: error.detail,
            index: index,
            offset: error.offset,
            session: session,
            app: app
        )
    }
}

/// Not `Sendable`: its scratch storage belongs to the thread that decodes.
@available(*, unavailable)
extension EventDecoder: Sendable {}
