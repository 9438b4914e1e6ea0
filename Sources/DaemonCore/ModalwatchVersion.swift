/// The version of modalwatch.
public enum ModalwatchVersion {
    /// Semantic version of this build.
    public static let string = "0.1.0"
    /// Version of the control protocol (docs/control-protocol.md).
    public static let controlProtocol = 1
}
