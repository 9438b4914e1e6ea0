import CZeroMQ

/// libzmq's built-in proxy (`zmq_proxy_steerable`): moves messages both ways between a
/// frontend and a backend socket until told to stop on the control socket.
///
/// Every socket passed belongs to the calling thread for the proxy's whole run (the
/// proxy uses them there). Steer it from another thread through a socket of that
/// thread's own, connected to `control` (a `PAIR` over `inproc://`): send
/// ``Command/pause``, ``Command/resume``, ``Command/terminate`` or ``Command/statistics``
/// (whose reply is eight frames, see ``Statistics/init(frames:)``).
public enum ZMQProxy: Sendable {
    /// The control commands of `zmq_proxy_steerable`.
    public enum Command: String, Sendable {
        /// Stop moving messages (they queue).
        case pause = "PAUSE"
        /// Move them again.
        case resume = "RESUME"
        /// Return from ``run(frontend:backend:capture:control:)``.
        case terminate = "TERMINATE"
        /// Reply with the counters.
        case statistics = "STATISTICS"
    }

    /// The proxy's counters: messages and bytes each socket received and sent.
    public struct Statistics: Sendable, Equatable {
        /// Messages the frontend received (producers' messages, for a forwarder).
        public var frontendMessagesIn: UInt64 = 0
        /// Bytes the frontend received.
        public var frontendBytesIn: UInt64 = 0
        /// Messages the frontend sent (subscriptions going upstream, for a forwarder).
        public var frontendMessagesOut: UInt64 = 0
        /// Bytes the frontend sent.
        public var frontendBytesOut: UInt64 = 0
        /// Messages the backend received (the daemons' subscriptions, for a forwarder).
        public var backendMessagesIn: UInt64 = 0
        /// Bytes the backend received.
        public var backendBytesIn: UInt64 = 0
        /// Messages the backend sent (forwarded to the daemons).
        public var backendMessagesOut: UInt64 = 0
        /// Bytes the backend sent.
        public var backendBytesOut: UInt64 = 0

        /// Zero counters.
        public init() {}

        /// The counters from the eight frames of a ``Command/statistics`` reply, or nil.
        public init?(frames: [[UInt8]]) {
            guard frames.count == 8, frames.allSatisfy({ $0.count == 8 }) else { return nil }
            let values = frames.map { frame in frame.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }
            (frontendMessagesIn, frontendBytesIn, frontendMessagesOut, frontendBytesOut) = (values[0], values[1], values[2], values[3])
            (backendMessagesIn, backendBytesIn, backendMessagesOut, backendBytesOut) = (values[4], values[5], values[6], values[7])
        }
    }

    /// Runs the proxy on this thread until ``Command/terminate`` arrives on `control`.
    ///
    /// - Throws: ``ZMQError``; ``ZMQError/isTerminated`` when the context was shut down instead.
    public static func run(frontend: ZMQSocket, backend: ZMQSocket, capture: ZMQSocket? = nil, control: ZMQSocket) throws(ZMQError) {
        let front = try frontend.openHandle("zmq_proxy_steerable: frontend")
        let back = try backend.openHandle("zmq_proxy_steerable: backend")
        let steer = try control.openHandle("zmq_proxy_steerable: control")
        let capturing = try capture?.openHandle("zmq_proxy_steerable: capture")
        try LibZMQ.callOnce("zmq_proxy_steerable") { zmq_proxy_steerable(front, back, capturing, steer) }
    }
}
