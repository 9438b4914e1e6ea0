import CurveAuthentication
import Foundation
import Synchronization
import ZeroMQ

/// The thread that owns the forwarder's three sockets (frontend `XSUB`, backend `XPUB`, control
/// `PAIR`) for their whole life and runs `zmq_proxy_steerable` on them.
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
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let state = Mutex<(bound: (String, String)?, failure: Failure?, ended: Bool)>((nil, nil, false))

    init(context: ZMQContext, frontend: String, backend: String, control: String, curve: Curve?) {
        self.context = context
        self.frontend = frontend
        self.backend = backend
        self.control = control
        self.curve = curve
    }

    /// Starts the thread; returns the endpoints bound once the proxy is about to run.
    func start() throws(Failure) -> (frontend: String, backend: String) {
        let thread = Thread { [self] in run() }
        thread.name = "modalwatch-forward"
        thread.start()
        started.wait()
        let (bound, failure, _) = state.withLock { $0 }
        if let failure { throw failure }
        return bound!
    }

    /// Waits until the proxy has returned and its sockets are closed.
    func join() { finished.wait() }

    /// Whether the proxy returned.
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Why it returned with an error, if it did.
    var failure: Failure? { state.withLock { $0.failure } }

    private func fail(_ message: String, endpoint: Bool = false) {
        state.withLock { $0.failure = Failure(description: message, isEndpoint: endpoint) }
    }

    private func run() {
        defer {
            state.withLock { $0.ended = true }
            finished.signal()
        }
        var sockets: [ZMQSocket] = []
        defer { for socket in sockets { socket.close() } }
        let front: ZMQSocket, back: ZMQSocket, steer: ZMQSocket
        do {
            front = try ZMQSocket(context, type: .xsub, linger: 0)
            sockets.append(front)
            back = try ZMQSocket(context, type: .xpub, linger: 1000)
            sockets.append(back)
            steer = try ZMQSocket(context, type: .pair, linger: 0)
            sockets.append(steer)
            try front.set(.receiveHighWaterMark, 100_000)
            try back.set(.sendHighWaterMark, 100_000)
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
            fail("cannot set up the forwarder's sockets: \(error)")
            started.signal()
            return
        }
        var bound = ("", "")
        for (socket, endpoint, role) in [(front, frontend, "frontend"), (back, backend, "backend")] {
            do {
                try socket.bind(endpoint)
                let actual = (try? socket.lastEndpoint) ?? endpoint
                if role == "frontend" { bound.0 = actual } else { bound.1 = actual }
            } catch {
                fail("cannot bind the \(role) to \(endpoint): \(error.reason); is another forwarder running? choose another with --\(role)", endpoint: true)
                started.signal()
                return
            }
        }
        state.withLock { $0.bound = bound }
        started.signal()
        do {
            try ZMQProxy.run(frontend: front, backend: back, control: steer)
        } catch {
            if !error.isTerminated { fail("\(error)") }
        }
    }
}
