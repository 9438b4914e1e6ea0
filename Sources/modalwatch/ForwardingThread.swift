import ConnectionLimits
import CurveAuthentication
import EventDecoding
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// The thread that owns the forwarder's three sockets (frontend `XSUB`, backend `XPUB`, control
/// `PAIR`) for their whole life and runs the proxy loop on them (``ForwardingProxy``: the
/// backend's subscriptions bounded by a `SubscriptionGuard`).
final class ForwardingThread: Sendable {
    /// Why the proxy could not start or stopped.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// An endpoint could not be bound (bad usage, exit 2).
        let isEndpoint: Bool
    }

    /// CURVE on the two sides: the frontend a server authenticated by the ZAP handler
    /// (``ForwarderAuthentication``), the backend a client of the daemons' key.
    struct Curve: Sendable {
        /// The forwarder's key pair.
        var publicKey: String
        var secretKey: String
        /// The daemons' public key (Z85) when the backend is encrypted.
        var backendServerKey: String?
    }

    private let context: ZMQContext
    private let frontend: String
    private let backend: String
    private let control: String
    private let curve: Curve?
    private let finished = Mutex<DispatchSemaphore?>(nil)
    private let state = Mutex<(failure: Failure?, ended: Bool)>((nil, false))

    init(context: ZMQContext, frontend: String, backend: String, control: String, curve: Curve?) {
        self.context = context
        self.frontend = frontend
        self.backend = backend
        self.control = control
        self.curve = curve
    }

    /// The thread's sockets.
    private struct Sockets {
        let front: ZMQSocket
        let back: ZMQSocket
        let steer: ZMQSocket
        /// The endpoints the frontend and backend bound.
        let bound: (String, String)
    }

    /// Starts the thread; returns the endpoints bound once the proxy is about to run.
    func start() throws(Failure) -> (frontend: String, backend: String) {
        let (bound, finished) = try SocketThread.start(
            name: "modalwatch-forward",
            open: { [self] () throws(Failure) in try open() },
            report: { $0.bound },
            run: { [self] in run($0) }
        )
        self.finished.withLock { $0 = finished }
        return bound
    }

    /// Waits until the proxy has returned and its sockets are closed.
    func join() { finished.withLock { $0 }?.wait() }

    /// Whether the proxy returned.
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Why it returned with an error, if it did.
    var failure: Failure? { state.withLock { $0.failure } }

    /// Makes the sockets and binds them; closes what it made when it throws.
    private func open() throws(Failure) -> Sockets {
        var sockets: [ZMQSocket] = []
        let front: ZMQSocket
        let back: ZMQSocket
        let steer: ZMQSocket
        do {
            front = try ZMQSocket(context, type: .xsub, linger: 0)
            sockets.append(front)
            back = try ZMQSocket(context, type: .xpub, linger: 1000)
            sockets.append(back)
            steer = try ZMQSocket(context, type: .pair, linger: 0)
            sockets.append(steer)
            try front.set(.receiveHighWaterMark, 100_000)
            try front.set(.maxMessageSize, EventLimits.maxSocketMessageBytes)
            try back.set(.sendHighWaterMark, 100_000)
            try back.set(.maxMessageSize, EventLimits.maxSubscriptionMessageBytes)
            // Every subscription comes up, with its connection, to be counted (SubscriptionGuard).
            try back.set(.xpubVerboser, true)
            // A connection that never speaks ZMTP (bare TCP) is closed after 5 s on either side.
            try front.set(.handshakeInterval, ConnectionGuard.handshakeIntervalMs)
            try back.set(.handshakeInterval, ConnectionGuard.handshakeIntervalMs)
            if let curve {
                try ZapHandler.makeServer(front, secretKey: curve.secretKey)
                if let serverKey = curve.backendServerKey {
                    try back.set(.curveServerKey, serverKey)
                    try back.set(.curvePublicKey, curve.publicKey)
                    try back.set(.curveSecretKey, curve.secretKey)
                }
            }
            try steer.bind(control)
        } catch {
            for socket in sockets { socket.close() }
            throw Failure(description: "cannot set up the forwarder's sockets: \(error)", isEndpoint: false)
        }
        var bound = ("", "")
        for (socket, endpoint, role) in [(front, frontend, "frontend"), (back, backend, "backend")] {
            do {
                try socket.bind(endpoint)
                let actual = (try? socket.lastEndpoint) ?? endpoint
                if role == "frontend" { bound.0 = actual } else { bound.1 = actual }
            } catch {
                for socket in sockets { socket.close() }
                throw Failure(
                    description:
                        "cannot bind the \(role) to \(endpoint): \(error.reason); is another forwarder running? choose another with --\(role)",
                    isEndpoint: true
                )
            }
        }
        do {
            // The connections each side accepts are bounded by the guards the command's thread reads.
            try ConnectionGuard.monitor(front, name: Self.frontendGuardName)
            try ConnectionGuard.monitor(back, name: Self.backendGuardName)
        } catch {
            for socket in sockets { socket.close() }
            throw Failure(description: "cannot monitor the forwarder's connections: \(error)", isEndpoint: false)
        }
        return Sockets(front: front, back: back, steer: steer, bound: bound)
    }

    /// The frontend's connection guard, by name (log lines).
    static let frontendGuardName = "forward-frontend"
    /// The backend's connection guard, by name.
    static let backendGuardName = "forward-backend"

    /// Runs the proxy until it is told to stop or the context ends; closes the sockets.
    private func run(_ sockets: Sockets) {
        defer {
            for socket in [sockets.front, sockets.back, sockets.steer] { socket.close() }
            state.withLock { $0.ended = true }
        }
        do {
            let proxy = ForwardingProxy(
                front: sockets.front,
                back: sockets.back,
                steer: sockets.steer,
                backendEndpoint: sockets.bound.1,
                logger: Logger(label: "modalwatch forward")
            )
            try proxy.run()
        } catch {
            if !error.isTerminated {
                state.withLock { $0.failure = Failure(description: "\(error)", isEndpoint: false) }
            }
        }
    }
}
