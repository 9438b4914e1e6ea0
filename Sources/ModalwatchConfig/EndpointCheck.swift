import Foundation

/// Checks every endpoint of a configuration before anything is bound: the ZeroMQ
/// endpoints (events, events_connect, publish, control) and the metrics address.
/// `--check-config` and start-up call the same function, so a configuration that
/// passes the check does not fail at start for its endpoints' syntax.
public enum EndpointCheck: Sendable {
    /// What is wrong with the endpoints of `configuration`, one line each; empty when all are fine.
    public static func problems(in configuration: DaemonConfiguration) -> [String] {
        var problems: [String] = []
        for endpoint in configuration.events {
            if let problem = problem(endpoint, role: "events", binds: true) { problems.append(problem) }
        }
        for endpoint in configuration.eventsConnect {
            if let problem = problem(endpoint, role: "events_connect", binds: false) { problems.append(problem) }
        }
        if let problem = problem(configuration.publish, role: "publish", binds: true) { problems.append(problem) }
        if let problem = problem(configuration.control, role: "control", binds: true) { problems.append(problem) }
        if let metrics = configuration.metrics {
            do {
                _ = try MetricsAddress(parsing: metrics, allowRemote: configuration.metricsAllowRemote)
            } catch {
                problems.append("metrics: \(error.description)")
            }
        }
        return problems
    }

    /// ZeroMQ transports libzmq may accept.
    private static let transports: Set<String> = [
        "tcp", "ipc", "inproc", "pgm", "epgm", "tipc", "vmci", "udp", "ws", "wss",
    ]
    /// The longest path of a Unix socket (`sun_path` less its terminating zero).
    static let maxIPCPathBytes = 107

    /// What is wrong with one ZeroMQ endpoint of `role`, or nil.
    public static func problem(_ endpoint: String, role: String, binds: Bool) -> String? {
        guard let separator = endpoint.range(of: "://") else {
            return "\(role): '\(endpoint)' is not an endpoint; write transport://address, e.g. tcp://127.0.0.1:7450"
        }
        let transport = String(endpoint[..<separator.lowerBound])
        let address = String(endpoint[separator.upperBound...])
        guard transports.contains(transport) else {
            return "\(role): '\(transport)' in \(endpoint) is not a ZeroMQ transport; use tcp://, ipc:// or inproc://"
        }
        guard !address.isEmpty else { return "\(role): \(endpoint) has no address" }
        switch transport {
        case "tcp", "ws", "wss":
            guard let colon = address.lastIndex(of: ":") else {
                return "\(role): \(endpoint) has no port; write e.g. \(transport)://127.0.0.1:7450"
            }
            var port = String(address[address.index(after: colon)...])
            if transport != "tcp", let slash = port.firstIndex(of: "/") { port = String(port[..<slash]) }
            let host = address[..<colon]
            if host.isEmpty { return "\(role): \(endpoint) has no host; write e.g. \(transport)://127.0.0.1\(address)" }
            if port == "*" && binds { return nil }
            guard let number = Int(port), number >= (binds ? 0 : 1), number <= 65535 else {
                return "\(role): port '\(port)' of \(endpoint) is not in \(binds ? 0 : 1)...65535"
            }
        case "ipc":
            if address.hasPrefix("@") && role == "control" {
                return
                    "control: \(endpoint) is in the abstract socket namespace, which has no file permissions (any local user could reload the daemon); use a path such as ipc:///run/modalwatch/control.sock"
            }
            if address.utf8.count > maxIPCPathBytes {
                return
                    "\(role): the path of \(endpoint) is \(address.utf8.count) bytes; a Unix socket path has at most \(maxIPCPathBytes)"
            }
        default:
            break
        }
        return nil
    }
}
