/// The version of modalwatch: one home for the daemon's, the CLI's and the bench's.
public enum ModalwatchVersion: Sendable {
    /// Semantic version of this build.
    public static let string = "0.1.0"
    /// Version of the control protocol (docs/control-protocol.md): every request may carry
    /// it as `"v"`, every reply carries it as `"v"`, and `status` as `"protocol"`.
    public static let controlProtocol = 1
}
