import ByteBasics
import CZeroMQ
public import Logging
import Posix
public import ZeroMQ

/// Bounds the connections one listening socket (the daemon's ingest, publish and control sockets,
/// the forwarder's frontend and backend) accepted on its TCP
/// endpoints, so that a flood of connections (bare TCP that never speaks ZMTP included) to any
/// of them cannot take every descriptor of the process: the other sockets, the history and the
/// checkpoint keep theirs.
///
/// libzmq has no limit of its own. It reports each connection it accepts and each one that
/// ends on a monitor `PAIR` (`zmq_socket_monitor`), which this reads on the thread that made it:
/// past `limit`, a newly accepted connection is shut down (`shutdown(2)`, never `close`:
/// the descriptor stays libzmq's, which then sees the connection end and closes it) and
/// counted. Before that it checks that the descriptor is still a TCP socket on one of the
/// socket's ports, so that a descriptor libzmq closed and the process reused meanwhile is
/// left alone. A connection that never finishes the handshake is closed by libzmq after
/// `ZMQ_HANDSHAKE_IVL` (`handshakeIntervalMs`).
///
/// The socket's owner starts the monitor on its own thread (`monitor(_:name:)`, after binding);
/// the guard, made on the thread that reads it (the daemon's ingest thread, the forwarder's main
/// thread) and confined to it, owns the monitor's `PAIR` socket. That thread reads it at least
/// every 50 ms: libzmq's I/O thread waits on a monitor nobody reads.
public final class ConnectionGuard {
    /// How long a connection may take to finish the ZMTP (and CURVE) handshake.
    public static let handshakeIntervalMs: Int32 = 5000
    /// Descriptors the limits leave to everything else when they are derived from `RLIMIT_NOFILE`.
    public static let descriptorReserve = 64
    /// The events a guard reads.
    private static let events = ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_ACCEPT_FAILED

    /// The socket guarded (`ingest`, `publish`, `control`), in log lines and `status`.
    public let name: String
    /// The monitor `PAIR`, for the poller.
    public let socket: ZMQSocket
    /// The most connections accepted on the socket's TCP endpoints held at once.
    public let limit: Int
    private let ports: Set<UInt16>
    private var accepted: Set<Int32> = []
    private let logger: Logger
    /// Connections shut down past `limit`.
    public private(set) var refused: UInt64 = 0
    /// Accepts that failed (e.g. `EMFILE`: no descriptor left).
    public private(set) var acceptFailures: UInt64 = 0
    private var lastWarningMs: Int64 = .min

    /// Connections accepted on the socket's TCP endpoints now.
    public var open: Int { accepted.count }

    /// The ingest socket's limit: `configured`, else half of what `RLIMIT_NOFILE` leaves past a
    /// reserve (the other half absorbs what libzmq accepts before this reads its events, and the
    /// publish and control sockets' limits).
    public static func limit(configured: Int?, descriptorLimit: Int) -> Int {
        if let configured { return configured }
        return max(8, (min(descriptorLimit, 1 << 20) - descriptorReserve) / 2)
    }

    /// The publish and control sockets' limit each: a sixteenth of what `RLIMIT_NOFILE` leaves
    /// past the reserve (subscribers and command-line clients are few), at least 8.
    public static func sideLimit(descriptorLimit: Int) -> Int {
        max(8, (min(descriptorLimit, 1 << 20) - descriptorReserve) / 16)
    }

    /// Starts monitoring `socket` for the guard of `name`: call it on the socket's own thread,
    /// after binding (a listener takes the socket's options, `handshakeIntervalMs` among them,
    /// when it is made).
    public static func monitor(_ socket: ZMQSocket, name: String) throws(ZMQError) {
        try socket.monitor(endpoint(name), events: events)
    }

    private static func endpoint(_ name: String) -> String { "inproc://modalwatch-\(name)-monitor" }

    /// Connects the monitor `PAIR` of the socket `name` monitors (`monitor(_:name:)`), bound to
    /// `boundEndpoints`.
    public init(
        name: String,
        context: ZMQContext,
        boundEndpoints: [String],
        limit: Int,
        logger: Logger
    ) throws(ZMQError) {
        self.name = name
        self.limit = limit
        self.logger = logger
        ports = Set(boundEndpoints.compactMap(Self.tcpPort))
        socket = try ZMQSocket(context, type: .pair)
        do {
            try socket.connect(Self.endpoint(name))
        } catch {
            socket.close()
            throw error
        }
    }

    /// Reads every event waiting; shuts down what is past the limit.
    public func serve() {
        while true {
            let event: ZMQSocket.MonitorEvent?
            do { event = try socket.receiveMonitorEvent(dontWait: true) } catch {
                logger.warning(
                    "connection monitor event unreadable",
                    metadata: ["socket": "\(name)", "error": "\(error)"]
                )
                return
            }
            guard let event else { return }
            switch Int32(event.event) {
            case ZMQ_EVENT_ACCEPTED where event.endpoint.hasPrefix("tcp://"): admit(event.value)
            case ZMQ_EVENT_DISCONNECTED: accepted.remove(event.value)
            case ZMQ_EVENT_ACCEPT_FAILED:
                acceptFailures += 1
                warn(
                    "a socket could not accept a connection",
                    ["socket": "\(name)", "errno": "\(event.value)", "endpoint": "\(event.endpoint)"]
                )
            default: break
            }
        }
    }

    /// Closes the monitor `PAIR`.
    public func close() { socket.close() }

    private func admit(_ descriptor: Int32) {
        guard accepted.count >= limit else {
            accepted.insert(descriptor)
            return
        }
        // Still a socket on one of this socket's ports: not a descriptor closed and reused meanwhile.
        guard let port = Posix.localTCPPort(ofForeign: descriptor), ports.contains(port) else { return }
        if Posix.shutdownForeign(descriptor) { refused += 1 }
        warn(
            "connections at their limit; new ones are shut down",
            [
                "socket": "\(name)", "limit": "\(limit)", "refused": "\(refused)",
            ]
        )
    }

    /// One warning every 10 s at most.
    private func warn(_ message: Logger.Message, _ metadata: Logger.Metadata) {
        let now = PosixClock.monotonic.milliseconds()
        guard lastWarningMs == .min || now - lastWarningMs >= 10_000 else { return }
        lastWarningMs = now
        logger.warning(message, metadata: metadata)
    }

    private static func tcpPort(_ endpoint: String) -> UInt16? {
        guard endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":") else { return nil }
        return UInt16(endpoint[endpoint.index(after: colon)...])
    }
}

@available(*, unavailable)
extension ConnectionGuard: Sendable {}
