import Foundation
import Glibc
import Logging
import ModalwatchConfig
import Prometheus

/// A small HTTP/1.1 server on its own thread that answers `GET /metrics` with
/// the Prometheus text format. It binds where the config says (loopback by
/// default, e.g. `127.0.0.1:9464`) and serves one short request at a time.
final class MetricsHTTPServer: @unchecked Sendable {
    private let registry: PrometheusCollectorRegistry
    private let logger: Logger
    private var listener: Int32 = -1
    private(set) var boundAddress = ""

    init(registry: PrometheusCollectorRegistry, logger: Logger) {
        self.registry = registry
        self.logger = logger
    }

    /// Binds `host:port` (checked by `MetricsAddress`, as `--check-config` does) and starts serving.
    func start(address: String, allowRemote: Bool) throws(DaemonError) {
        let parsed: MetricsAddress
        do { parsed = try MetricsAddress(parsing: address, allowRemote: allowRemote) } catch {
            throw DaemonError(.configuration, "metrics: \(error.description)")
        }
        let host = parsed.host
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = parsed.port.bigEndian
        socketAddress.sin_addr.s_addr = parsed.networkAddress
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError(.systemCall, "socket() for metrics failed: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw DaemonError(.endpoint, "cannot bind metrics to \(address): \(reason); choose another with metrics: in the config")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        boundAddress = "\(host):\(UInt16(bigEndian: actual.sin_port))"
        listener = fd
        let thread = Thread { [self] in serve() }
        thread.name = "modalwatch-metrics"
        thread.start()
    }

    /// Stops accepting.
    func stop() {
        if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func serve() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            handle(client)
            close(client)
        }
        close(listener)
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8](repeating: 0, count: 4096)
        var received = 0
        while received < request.count {
            let n = request.withUnsafeMutableBytes { recv(client, $0.baseAddress! + received, $0.count - received, 0) }
            if n <= 0 { break }
            received += n
            if request[0..<received].contains(0x0A) { break }
        }
        let line = String(decoding: request[0..<received].prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let response: [UInt8]
        if parts.count >= 2, parts[0] == "GET", parts[1] == "/metrics" || parts[1].hasPrefix("/metrics?") {
            let body = registry.emitToBuffer()
            response = Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
        } else {
            let body = Array("not found; the metrics are at /metrics\n".utf8)
            response = Array("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
        }
        var sent = 0
        while sent < response.count {
            let n = response.withUnsafeBytes { send(client, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
    }
}
