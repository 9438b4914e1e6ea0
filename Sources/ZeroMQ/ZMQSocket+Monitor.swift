import CZeroMQ
import Glibc

/// Socket monitoring (`zmq_socket_monitor`): libzmq reports what happens to a socket's
/// connections as messages on an `inproc` `PAIR` endpoint.
extension ZMQSocket {
    /// One event of a monitored socket: what happened (`ZMQ_EVENT_…`), its value (the
    /// connection's descriptor for `ZMQ_EVENT_ACCEPTED` and `ZMQ_EVENT_DISCONNECTED`, an
    /// `errno` for failures) and the endpoint.
    public struct MonitorEvent: Sendable, Equatable {
        /// `ZMQ_EVENT_…`.
        public var event: UInt16
        /// The descriptor or the `errno`, as the event has it.
        public var value: Int32
        /// The endpoint it happened on.
        public var endpoint: String
    }

    /// Publishes this socket's `events` (a mask of `ZMQ_EVENT_…`) on the `inproc` `endpoint`,
    /// for a `PAIR` socket connected to it to read with ``receiveMonitorEvent(dontWait:)``.
    public func monitor(_ endpoint: String, events: Int32) throws(ZMQError) {
        let handle = try self.openHandle("zmq_socket_monitor(\(endpoint))")
        _ = try LibZMQ.callOnce("zmq_socket_monitor(\(endpoint))") { zmq_socket_monitor(handle, endpoint, events) }
    }

    /// The next monitor event on this `PAIR` socket, or nil (with `dontWait`, when none is
    /// waiting). A message that is not a monitor event is a protocol violation.
    public func receiveMonitorEvent(dontWait: Bool = true) throws(ZMQError) -> MonitorEvent? {
        guard let message = try receiveMultipart(maxFrames: 2, dontWait: dontWait) else { return nil }
        guard message.frames.count == 2, message.frames[0].count == 6 else {
            throw ZMQError(
                code: .protocolViolation,
                errno: EPROTO,
                operation: "receiveMonitorEvent: not a monitor event"
            )
        }
        let head = message.frames[0]
        let event = UInt16(head[0]) | UInt16(head[1]) << 8
        let value = UInt32(head[2]) | UInt32(head[3]) << 8 | UInt32(head[4]) << 16 | UInt32(head[5]) << 24
        return MonitorEvent(
            event: event,
            value: Int32(bitPattern: value),
            endpoint: String(decoding: message.frames[1], as: UTF8.self)
        )
    }
}
