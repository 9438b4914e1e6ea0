import CZeroMQ
import Logging
import Posix
import ZeroMQ

/// Bounds the connections the ingest socket accepted on its TCP endpoints, so that a flood
/// of connections (bare TCP that never speaks ZMTP included) cannot take every descriptor
/// of the process: the control socket, the history and the snapshot keep theirs.
///
/// libzmq has no limit of its own. It reports each connection it accepts and each one that
/// ends on a monitor `PAIR` (`zmq_socket_monitor`), which this reads on the ingest thread:
/// past `limit`, a newly accepted connection is shut down (`shutdown(2)`, never `close`:
/// the descriptor stays libzmq's, which then sees the connection end and closes it) and
/// counted. Before that it checks that the descriptor is still a TCP socket on one of the
/// ingest ports, so that a descriptor libzmq closed and the process reused meanwhile is
/// left alone. A connection that never finishes the handshake is closed by libzmq after
/// `ZMQ_HANDSHAKE_IVL` (`handshakeIntervalMs`).
///
/// Made on the ingest thread and confined to it (it owns the monitor's `PAIR` socket).
final class IngestConnectionGuard {
    /// How long a connection may take to finish the ZMTP (and CURVE) handshake.
    static let handshakeIntervalMs: Int32 = 5000
    /// Descriptors the limit leaves to everything else when it is derived from `RLIMIT_NOFILE`.
    static let descriptorReserve = 64
    /// The monitor's endpoint.
    private static let endpoint = "inproc://modalwatch-ingest-monitor"

    /// The monitor `PAIR`, for the poller.
    let socket: ZMQSocket
    /// The most connections accepted on the ingest endpoints held at once.
    let limit: Int
    private let ports: Set<UInt16>
    private var accepted: Set<Int32> = []
    private let logger: Logger
    /// Connections shut down past `limit`.
    private(set) var refused: UInt64 = 0
    /// Accepts that failed (e.g. `EMFILE`: no descriptor left).
    private(set) var acceptFailures: UInt64 = 0
    private var lastWarningMs: Int64 = .min

    /// Connections accepted on the ingest endpoints now.
    var open: Int { accepted.count }

    /// The limit: `configured`, else half of what `RLIMIT_NOFILE` leaves past a reserve
    /// (the other half absorbs what libzmq accepts before this reads its events).
    static func limit(configured: Int?, descriptorLimit: Int) -> Int {
        if let configured { return configured }
        return max(8, (min(descriptorLimit, 1 << 20) - descriptorReserve) / 2)
    }

    /// Monitors `ingest` (bound to `boundEndpoints`, with `handshakeIntervalMs` set before it
    /// was bound: a listener takes the socket's options when it is made) and connects the monitor `PAIR`.
    init(ingest: ZMQSocket, context: ZMQContext, boundEndpoints: [String], limit: Int, logger: Logger) throws(ZMQError) {
        self.limit = limit
        self.logger = logger
        ports = Set(boundEndpoints.compactMap(Self.tcpPort))
        try ingest.monitor(Self.endpoint, events: ZMQ_EVENT_ACCEPTED | ZMQ_EVENT_DISCONNECTED | ZMQ_EVENT_ACCEPT_FAILED)
        socket = try ZMQSocket(context, type: .pair)
        do {
            try socket.connect(Self.endpoint)
        } catch {
            socket.close()
            throw error
        }
    }

    /// Reads every event waiting; shuts down what is past the limit.
    func serve() {
        while true {
            let event: ZMQSocket.MonitorEvent?
            do { event = try socket.receiveMonitorEvent(dontWait: true) } catch {
                logger.warning("ingest monitor event unreadable", metadata: ["error": "\(error)"])
                return
            }
            guard let event else { return }
            switch Int32(event.event) {
            case ZMQ_EVENT_ACCEPTED where event.endpoint.hasPrefix("tcp://"): admit(event.value)
            case ZMQ_EVENT_DISCONNECTED: accepted.remove(event.value)
            case ZMQ_EVENT_ACCEPT_FAILED:
                acceptFailures += 1
                warn("the ingest socket could not accept a connection", ["errno": "\(event.value)", "endpoint": "\(event.endpoint)"])
            default: break
            }
        }
    }

    /// Closes the monitor `PAIR`.
    func close() { socket.close() }

    private func admit(_ descriptor: Int32) {
        guard accepted.count >= limit else {
            accepted.insert(descriptor)
            return
        }
        // Still a socket on an ingest port: not a descriptor closed and reused meanwhile.
        guard let port = Posix.localTCPPort(ofForeign: descriptor), ports.contains(port) else { return }
        if Posix.shutdownForeign(descriptor) { refused += 1 }
        warn("ingest connections at max_ingest_connections; new ones are shut down", [
            "limit": "\(limit)", "refused": "\(refused)",
        ])
    }

    /// One warning every 10 s at most.
    private func warn(_ message: Logger.Message, _ metadata: Logger.Metadata) {
        let now = Posix.monotonicMicroseconds() / 1000
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
extension IngestConnectionGuard: Sendable {}
