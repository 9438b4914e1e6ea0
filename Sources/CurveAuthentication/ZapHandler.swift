import CZeroMQ
public import Logging
public import ZeroMQ

/// The ZeroMQ authentication (ZAP, RFC 27) handler for CURVE: a REP socket on
/// `inproc://zeromq.zap.01` that libzmq asks about every client connecting to an
/// encrypted socket of its context. A client whose public key is not allowed is refused,
/// counted and logged (one line per 10 s at most). Owned and polled by one thread for its
/// whole life: the daemon's ingest thread, the forwarder's authentication thread.
public final class ZapHandler {
    /// Where libzmq sends its requests.
    public static let endpoint = "inproc://zeromq.zap.01"
    /// The ZAP domain set on modalwatch's encrypted sockets.
    public static let domain = "modalwatch"

    /// Why the handler could not start.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// One line for the operator.
        public let description: String
        /// Whether an allowed key is not a CURVE public key (a configuration error).
        public let isBadKey: Bool
    }

    /// The REP socket, for the owner's poller.
    public let socket: ZMQSocket
    private let allowed: Set<[UInt8]>
    private let logger: Logger
    private let what: String
    /// Clients let in.
    public private(set) var accepted: UInt64 = 0
    /// Clients refused (unknown key or not CURVE).
    public private(set) var refused: UInt64 = 0
    private var lastRefusalLog: ContinuousClock.Instant?

    /// Binds the handler in `context`; `allowedClients` are Z85 public keys; `what` names
    /// the list in errors (e.g. `curve.allowed_clients`).
    public init(context: ZMQContext, allowedClients: [String], what: String, logger: Logger) throws(Failure) {
        var keys = Set<[UInt8]>()
        for client in allowedClients {
            guard let key = Self.decodeZ85Key(client) else {
                throw Failure(description: "\(what): '\(client.prefix(12))…' is not a CURVE public key", isBadKey: true)
            }
            keys.insert(key)
        }
        allowed = keys
        self.logger = logger
        self.what = what
        do {
            socket = try ZMQSocket(context, type: .rep, linger: 0)
            try socket.bind(Self.endpoint)
        } catch {
            throw Failure(description: "cannot start the CURVE authentication handler: \(error)", isBadKey: false)
        }
    }

    /// Answers every pending request.
    public func serve() {
        while let request = try? socket.receiveMultipart(maxFrames: 16, dontWait: true) {
            let frames = request.frames
            guard frames.count >= 7, String(decoding: frames[0], as: UTF8.self) == "1.0" else {
                _ = try? socket.sendMultipart([
                    Array("1.0".utf8), frames.count > 1 ? frames[1] : [], Array("500".utf8),
                    Array("malformed ZAP request".utf8), [], [],
                ])
                continue
            }
            let mechanism = String(decoding: frames[5], as: UTF8.self)
            let clientKey = frames[6]
            let ok = mechanism == "CURVE" && allowed.contains(clientKey)
            if ok {
                accepted += 1
            } else {
                refused += 1
                let now = ContinuousClock.now
                if lastRefusalLog.map({ now - $0 > .seconds(10) }) ?? true {
                    lastRefusalLog = now
                    logger.warning(
                        "refused a client with an unknown CURVE key",
                        metadata: [
                            "address": "\(String(decoding: frames[3], as: UTF8.self))",
                            "client_key": "\(Self.encodeZ85(clientKey) ?? "?")", "refused_total": "\(refused)",
                            "allowed": "\(what)",
                        ]
                    )
                }
            }
            _ = try? socket.sendMultipart([
                Array("1.0".utf8), frames[1], Array((ok ? "200" : "400").utf8),
                Array((ok ? "OK" : "client key not allowed").utf8), ok ? Array("client".utf8) : [], [],
            ])
        }
    }

    /// Closes the socket (on the owning thread).
    public func close() { socket.close() }

    /// Makes `socket` a CURVE server with `secretKey` (Z85), authenticated through this handler.
    public static func makeServer(_ socket: ZMQSocket, secretKey: String) throws(ZMQError) {
        try socket.set(.curveServer, true)
        try socket.set(.curveSecretKey, secretKey)
        try socket.set(.zapDomain, domain)
    }

    /// The 32 bytes of a Z85 key, or nil.
    public static func decodeZ85Key(_ text: String) -> [UInt8]? {
        guard text.utf8.count == 40 else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        let ok = text.withCString { zmq_z85_decode(&out, $0) } != nil
        return ok ? out : nil
    }

    /// The Z85 text of a 32-byte key, or nil.
    public static func encodeZ85(_ key: [UInt8]) -> String? {
        guard key.count == 32 else { return nil }
        var out = [CChar](repeating: 0, count: 41)
        guard key.withUnsafeBufferPointer({ zmq_z85_encode(&out, $0.baseAddress, 32) }) != nil else { return nil }
        return String(decoding: out.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

@available(*, unavailable)
extension ZapHandler: Sendable {}
