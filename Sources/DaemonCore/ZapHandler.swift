import CZeroMQ
import Logging
import ZeroMQ

/// The ZeroMQ authentication (ZAP, RFC 27) handler for CURVE: a REP socket on
/// `inproc://zeromq.zap.01` that libzmq asks about every client connecting to an
/// encrypted socket. A client whose public key is not allowed is refused and counted.
/// Owned and polled by the ingest thread.
final class ZapHandler {
    static let endpoint = "inproc://zeromq.zap.01"
    /// The ZAP domain set on modalwatch's encrypted sockets.
    static let domain = "modalwatch"

    let socket: ZMQSocket
    private let allowed: Set<[UInt8]>
    private let logger: Logger
    private(set) var accepted: UInt64 = 0
    private(set) var refused: UInt64 = 0
    private var lastRefusalLog: Int64 = 0

    /// Binds the handler; `allowedClients` are Z85 public keys.
    init(context: ZMQContext, allowedClients: [String], logger: Logger) throws(DaemonError) {
        var keys = Set<[UInt8]>()
        for client in allowedClients {
            guard let key = Self.decodeZ85Key(client) else {
                throw DaemonError(.configuration, "curve.allowed_clients: '\(client.prefix(12))…' is not a CURVE public key")
            }
            keys.insert(key)
        }
        allowed = keys
        self.logger = logger
        do {
            socket = try ZMQSocket(context, type: .rep, linger: 0)
            try socket.bind(Self.endpoint)
        } catch {
            throw DaemonError(.systemCall, "cannot start the CURVE authentication handler: \(error)")
        }
    }

    /// Answers every pending request.
    func serve() {
        while let request = try? socket.receiveMultipart(maxFrames: 16, dontWait: true) {
            let frames = request.frames
            guard frames.count >= 7, String(decoding: frames[0], as: UTF8.self) == "1.0" else {
                _ = try? socket.sendMultipart([Array("1.0".utf8), frames.count > 1 ? frames[1] : [], Array("500".utf8),
                                               Array("malformed ZAP request".utf8), [], []])
                continue
            }
            let mechanism = String(decoding: frames[5], as: UTF8.self)
            let clientKey = frames[6]
            let ok = mechanism == "CURVE" && allowed.contains(clientKey)
            if ok {
                accepted += 1
            } else {
                refused += 1
                let now = WallClock.monotonicMilliseconds()
                if now - lastRefusalLog > 10_000 {
                    lastRefusalLog = now
                    logger.warning("refused a client with an unknown CURVE key", metadata: [
                        "address": "\(String(decoding: frames[3], as: UTF8.self))",
                        "client_key": "\(Self.encodeZ85(clientKey) ?? "?")", "refused_total": "\(refused)",
                    ])
                }
            }
            _ = try? socket.sendMultipart([
                Array("1.0".utf8), frames[1], Array((ok ? "200" : "400").utf8),
                Array((ok ? "OK" : "client key not allowed").utf8), ok ? Array("client".utf8) : [], [],
            ])
        }
    }

    func close() { socket.close() }

    /// Makes `socket` a CURVE server with `secretKey` (Z85), authenticated through this handler.
    static func makeServer(_ socket: ZMQSocket, secretKey: String) throws(ZMQError) {
        try socket.set(.curveServer, true)
        try socket.set(.curveSecretKey, secretKey)
        try socket.set(.zapDomain, domain)
    }

    static func decodeZ85Key(_ text: String) -> [UInt8]? {
        guard text.utf8.count == 40 else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        let ok = text.withCString { zmq_z85_decode(&out, $0) } != nil
        return ok ? out : nil
    }

    static func encodeZ85(_ key: [UInt8]) -> String? {
        guard key.count == 32 else { return nil }
        var out = [CChar](repeating: 0, count: 41)
        guard key.withUnsafeBufferPointer({ zmq_z85_encode(&out, $0.baseAddress, 32) }) != nil else { return nil }
        return String(decoding: out.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
