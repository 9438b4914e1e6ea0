/// One rejected event: what was wrong and, when they could be read, whose it was.
///
/// Built only on the error path; its strings are copies, valid after the `decode` call returns.
public struct Rejection: Sendable, Equatable, CustomStringConvertible {
    /// The reason, as counted and reported on the diagnostics topic.
    public var reason: RejectReason
    /// The top-level field at fault (e.g. `"ts"`, `"buttons"`), or nil for malformed JSON and size limits.
    public var field: String?
    /// One line for a person, e.g. `field 'ts' must be an integer >= 0`.
    public var detail: String
    /// The event's index in its payload (0 for a single event).
    public var index: Int
    /// Byte offset in the payload where the problem was found.
    public var offset: Int
    /// The event's `session`, when it was read and valid before the problem was found.
    public var session: String?
    /// The event's `app`, when it was read and valid before the problem was found.
    public var app: String?

    /// A rejection; the decoder makes these, tests and callers may too.
    public init(
        reason: RejectReason,
        field: String?,
        detail: String,
        index: Int,
        offset: Int,
        session: String? = nil,
        app: String? = nil
    ) {
        self.reason = reason
        self.field = field
        self.detail = detail
        self.index = index
        self.offset = offset
        self.session = session
        self.app = app
    }

    /// `reason: detail (event N, byte M)`.
    public var description: String {
        "\(reason.rawValue): \(detail) (event \(index), byte \(offset))"
    }
}
