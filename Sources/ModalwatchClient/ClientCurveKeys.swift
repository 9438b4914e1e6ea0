/// The CURVE keys of a client (40-character Z85 each): its own key pair, and the
/// server's public key (the daemon's, or the forwarder's). `modalwatch keygen` makes pairs;
/// the daemon's `curve.allowed_clients` must list ``publicKey``.
public struct ClientCurveKeys: Sendable {
    /// The server's public key.
    public var serverKey: String
    /// This client's public key.
    public var publicKey: String
    /// This client's secret key.
    public var secretKey: String

    /// A client's keys.
    public init(serverKey: String, publicKey: String, secretKey: String) {
        self.serverKey = serverKey
        self.publicKey = publicKey
        self.secretKey = secretKey
    }
}
