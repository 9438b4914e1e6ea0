import Glibc

/// The `metrics:` address, `host:port` with an IPv4 host: parsed and checked the same
/// way by `--check-config` and by the metrics server when it binds.
public struct MetricsAddress: Sendable, Equatable {
    /// Why an address is refused, in one line.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// What is wrong and what to do.
        public let description: String
    }

    /// The IPv4 host, dotted.
    public let host: String
    /// The port; 0 lets the system choose.
    public let port: UInt16
    /// The host in network byte order (`sin_addr.s_addr`).
    public let networkAddress: UInt32

    /// Parses `text`. A host outside 127.0.0.0/8 needs `allowRemote` (`metrics_allow_remote: true`):
    /// the metrics carry the daemon's counters and are served without authentication.
    public init(parsing text: String, allowRemote: Bool) throws(Problem) {
        guard let colon = text.lastIndex(of: ":") else {
            throw Problem(description: "'\(text)' must be host:port, e.g. 127.0.0.1:9464")
        }
        let host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard let port = Int(portText), port >= 0, port <= 65535, !portText.hasPrefix("+") else {
            throw Problem(description: "port '\(portText)' of \(text) is not in 0...65535")
        }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else {
            throw Problem(description: "host '\(host)' of \(text) must be an IPv4 address, e.g. 127.0.0.1")
        }
        let firstOctet = UInt32(bigEndian: address.s_addr) >> 24
        if firstOctet != 127 && !allowRemote {
            throw Problem(
                description:
                    "\(text) is not a loopback address: metrics are served without authentication; set metrics_allow_remote: true to serve them there"
            )
        }
        self.host = host
        self.port = UInt16(port)
        self.networkAddress = address.s_addr
    }
}
