import ZeroMQ

/// What the ingest thread tells the publishing thread on their `inproc` PAIR socket:
/// a header frame of one byte, the kind, followed by a body frame when the kind has
/// one. Encoded by `send(on:body:)` and decoded by `receive(from:header:body:dontWait:)`,
/// nowhere else.
///
/// | kind | header | body |
/// | --- | --- | --- |
/// | `batch` | `0x01`, more | one `OutboundBatch` |
/// | `finish` | `0x02` | none |
///
/// A new kind is a new case with its own byte; the publishing thread's `switch` then
/// asks for its handling.
enum HandOver: UInt8, Sendable {
    /// Violations and diagnostics in the order found (`OutboundBatch`): store, then publish.
    case batch = 1
    /// The ingest thread is done: nothing more will come.
    case finish = 2

    /// Whether a body frame follows the header.
    var hasBody: Bool {
        switch self {
        case .batch: true
        case .finish: false
        }
    }

    /// Sends the header and, for a kind with a body, `body` as the second frame.
    /// Returns false when the socket would block with `.dontWait` in `flags`.
    @discardableResult
    func send(on socket: ZMQSocket, body: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
              flags: ZMQSendFlags = []) throws(ZMQError) -> Bool {
        var header = rawValue
        let sent = try withUnsafeBytes(of: &header) { (header) throws(ZMQError) -> Bool in
            try socket.send(header, flags: hasBody ? flags.union(.more) : flags)
        }
        guard sent, hasBody else { return sent }
        // The queue limit counts whole messages: once the first frame went, the second fits.
        return try socket.send(body, flags: flags)
    }

    /// Receives one hand-over: the header into `header` and, for a kind with a body, the
    /// body into `body`. Nil when nothing is waiting (with `dontWait`), or when the header
    /// is not one this build sends: then every frame of that message is skipped.
    static func receive(from socket: ZMQSocket, header: inout ZMQMessage, body: inout ZMQMessage,
                        dontWait: Bool = false) throws(ZMQError) -> HandOver? {
        guard try socket.receive(into: &header, dontWait: dontWait) else { return nil }
        let kind = header.count == 1 ? header.withBytes { HandOver(rawValue: $0[0]) } : nil
        guard let kind, kind.hasBody == header.hasMore else {
            var more = header.hasMore
            while more, try socket.receive(into: &body) { more = body.hasMore }
            return nil
        }
        if kind.hasBody {
            // The body is queued with its header (messages are atomic): it never blocks.
            _ = try socket.receive(into: &body)
        }
        return kind
    }
}
