/// The version of modalwatch: one home for the daemon's, the CLI's, the bench's and the
/// Debian package's (`scripts/package.sh` reads it from `modalwatch --version`).
public enum ModalwatchVersion: Sendable {
    /// Semantic version of this build.
    public static let string = "0.2.0"
    /// Version of the control protocol (docs/control-protocol.md): every request may carry
    /// it as `"v"`, every reply carries it as `"v"`, and `status` as `"protocol"`.
    public static let controlProtocol = 1
    /// The Swift compiler that built this binary, major.minor (e.g. `6.3`): a module built
    /// out of tree loads into the daemon when it was built with the same one.
    public static let swiftCompiler: String = {
        #if compiler(>=7.0)
        return "7.0 or later"
        #elseif compiler(>=6.5)
        return "6.5"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }()
}
