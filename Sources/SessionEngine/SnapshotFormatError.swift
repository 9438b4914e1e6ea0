/// Why a binary session snapshot was refused; the description is one line.
public enum SnapshotFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the snapshot's magic bytes.
    case notASnapshot
    /// A format version this daemon does not read.
    case unsupportedVersion(UInt32)
    /// The body's checksum does not match the header's.
    case checksumMismatch(expected: UInt64, found: UInt64)
    /// The file ends before a field does.
    case truncated(offset: Int)
    /// A field holds a value the format does not allow.
    case malformed(String, offset: Int)

    /// One line for the log.
    public var description: String {
        switch self {
        case .notASnapshot: "not a session snapshot (wrong magic bytes)"
        case .unsupportedVersion(let version): "session snapshot format version \(version) is not supported"
        case .checksumMismatch(let expected, let found):
            "session snapshot checksum mismatch (header \(expected), body \(found))"
        case .truncated(let offset): "session snapshot truncated at byte \(offset)"
        case .malformed(let what, let offset): "session snapshot malformed at byte \(offset): \(what)"
        }
    }
}
