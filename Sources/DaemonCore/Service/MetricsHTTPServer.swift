import ByteBasics
import Foundation
import Glibc
import Logging
import ModalwatchConfig
import Posix
import Prometheus

/// A small HTTP/1.1 server on its own thread that answers `GET /metrics` with
/// the Prometheus text format, and `GET /healthz` with `200 ok`, or `503` and one line saying
/// why (``DaemonHealth``: the ingest loop stuck, the history failing). It binds where the config says (loopback by
/// default, e.g. `127.0.0.1:9464`) and serves one short request at a time.
/// The process metrics (`ProcessMetrics`) are read on this thread, for each scrape.
/// Every system call goes through `Posix`.
final class MetricsHTTPServer: Sendable {
    private let registry: PrometheusCollectorRegistry
    /// What `/healthz` reports; the ingest loop beats it.
    let health: DaemonHealth
    private let logger: Logger
    private let listener: Int32
    /// `host:port` as bound (with the real port for port 0).
    let boundAddress: String

    private init(
        registry: PrometheusCollectorRegistry,
        health: DaemonHealth,
        logger: Logger,
        listener: Int32,
        boundAddress: String
    ) {
        self.registry = registry
        self.health = health
        self.logger = logger
        self.listener = listener
        self.boundAddress = boundAddress
    }

    /// Binds `host:port` (checked by `MetricsAddress`, as `--check-config` does) and starts
    /// serving on a thread of its own.
    static func start(
        address: String,
        allowRemote: Bool,
        registry: PrometheusCollectorRegistry,
        health: DaemonHealth,
        logger: Logger
    ) throws(DaemonError) -> MetricsHTTPServer {
        let parsed: MetricsAddress
        do { parsed = try MetricsAddress(parsing: address, allowRemote: allowRemote) } catch {
            throw DaemonError(.configuration, "metrics: \(error.description)", underlying: error)
        }
        let host = parsed.host
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = parsed.port.bigEndian
        socketAddress.sin_addr.s_addr = parsed.networkAddress
        let fd: Int32
        do { fd = try Posix.socket(AF_INET, Int32(SOCK_STREAM.rawValue)) } catch {
            throw DaemonError(.systemCall, "cannot create the metrics socket: \(error)", underlying: error)
        }
        let actual: sockaddr_in
        do {
            try Posix.setOption(fd, SOL_SOCKET, SO_REUSEADDR, Int32(1))
            try Posix.bind(fd, socketAddress)
            try Posix.listen(fd, backlog: 16)
            actual = try Posix.localAddress(fd)
        } catch {
            try? Posix.close(fd)
            throw DaemonError(
                .endpoint,
                "cannot bind metrics to \(address): \(error); choose another with metrics: in the config",
                underlying: error
            )
        }
        let server = MetricsHTTPServer(
            registry: registry,
            health: health,
            logger: logger,
            listener: fd,
            boundAddress: "\(host):\(UInt16(bigEndian: actual.sin_port))"
        )
        let thread = Thread { server.serve() }
        thread.name = "modalwatch-metrics"
        thread.start()
        return server
    }

    /// Stops accepting: the serving thread's `accept` fails and it closes the listener.
    func stop() {
        do {
            try Posix.shutdown(listener)
        } catch {
            logger.warning("could not shut the metrics listener down", metadata: ["error": "\(error)"])
        }
    }

    /// Accepts until `stop()`: the listener stays open until then (so `stop()` never meets a
    /// closed descriptor), and a failed accept (out of descriptors, a client gone) is waited out.
    private func serve() {
        var process = ProcessMetrics(registry: registry)
        var lastFailureLog: Int64 = 0
        while true {
            let client: Int32
            do { client = try Posix.accept(listener) } catch {
                if error.errno == EINVAL { break }  // shut down by stop()
                let now = PosixClock.monotonic.milliseconds()
                if now - lastFailureLog > 10_000 {
                    lastFailureLog = now
                    logger.warning("the metrics server could not accept a connection", metadata: ["error": "\(error)"])
                }
                usleep(100_000)
                continue
            }
            do {
                try handle(client, process: &process)
            } catch {
                logger.debug("a metrics request failed", metadata: ["error": "\(error)"])
            }
            try? Posix.close(client)
        }
        try? Posix.close(listener)
    }

    /// How long one connection may take, its request read and its answer sent: the server
    /// serves one connection at a time, so a client that sends a byte now and then holds it no
    /// longer than this.
    static let requestDeadlineMs: Int64 = 2000

    private func handle(_ client: Int32, process: inout ProcessMetrics) throws(PosixError) {
        let deadline = PosixClock.monotonic.milliseconds() + Self.requestDeadlineMs
        func remaining() -> timeval {
            let left = max(1, deadline - PosixClock.monotonic.milliseconds())
            return timeval(tv_sec: Int(left / 1000), tv_usec: Int(left % 1000) * 1000)
        }
        var request = [UInt8](repeating: 0, count: 4096)
        var received = 0
        while received < request.count {
            guard PosixClock.monotonic.milliseconds() < deadline else { return }
            try Posix.setOption(client, SOL_SOCKET, SO_RCVTIMEO, remaining())
            let n = try request.withUnsafeMutableBytes { buffer in
                Result { () throws(PosixError) in
                    try Posix.receive(client, into: UnsafeMutableRawBufferPointer(rebasing: buffer[received...]))
                }
            }.get()
            if n == 0 { break }
            received += n
            if request[0..<received].contains(0x0A) { break }
        }
        let line = String(decoding: request[0..<received].prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let path = parts.count >= 2 && parts[0] == "GET" ? parts[1].prefix { $0 != "?" } : ""
        let response: [UInt8]
        switch path {
        case "/metrics":
            process.update()
            response = Self.response(
                "200 OK",
                type: "text/plain; version=0.0.4; charset=utf-8",
                body: registry.emitToBuffer()
            )
        case "/healthz":
            if let problem = health.problem() {
                response = Self.response(
                    "503 Service Unavailable",
                    type: "text/plain; charset=utf-8",
                    body: Array("\(problem)\n".utf8)
                )
            } else {
                response = Self.response("200 OK", type: "text/plain; charset=utf-8", body: Array("ok\n".utf8))
            }
        default:
            response = Self.response(
                "404 Not Found",
                type: "text/plain",
                body: Array("not found; the metrics are at /metrics, the health at /healthz\n".utf8)
            )
        }
        try Posix.setOption(client, SOL_SOCKET, SO_SNDTIMEO, remaining())
        try response.withUnsafeBytes { bytes in Result { () throws(PosixError) in try Posix.sendAll(client, bytes) } }
            .get()
    }

    /// A whole HTTP/1.1 response that closes the connection.
    private static func response(_ status: String, type: String, body: [UInt8]) -> [UInt8] {
        Array(
            "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                .utf8
        ) + body
    }
}
