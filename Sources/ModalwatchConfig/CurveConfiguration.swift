/// CURVE encryption of the ingest and publish sockets (configuration `curve:`).
public struct CurveConfiguration: Sendable, Equatable {
    /// The server's key pair file (`modalwatch keygen` writes one; ZeroMQ certificate format).
    public var keyFile: String
    /// Public keys (Z85, 40 characters) of the clients allowed to connect.
    public var allowedClients: [String]
    /// Encrypt the ingest socket.
    public var ingest: Bool
    /// Encrypt the publish socket.
    public var publish: Bool

    /// Creates a CURVE configuration.
    public init(keyFile: String, allowedClients: [String], ingest: Bool = true, publish: Bool = true) {
        self.keyFile = keyFile
        self.allowedClients = allowedClients
        self.ingest = ingest
        self.publish = publish
    }
}
