/// A libzmq version number.
public struct ZMQVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The major version, e.g. `4`.
    public let major: Int
    /// The minor version, e.g. `3`.
    public let minor: Int
    /// The patch level, e.g. `4`.
    public let patch: Int

    /// Creates a version number.
    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Orders by major, then minor, then patch.
    public static func < (lhs: ZMQVersion, rhs: ZMQVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// `major.minor.patch`.
    public var description: String {
        "\(self.major).\(self.minor).\(self.patch)"
    }
}
