/// The fields of a reply that did what its request asked (besides `"ok"` and `"v"`), typed:
/// written by the daemon as ``fields``, read back by clients with ``init(fields:)``.
public protocol ControlReplyBody: Sendable, Equatable {
    /// Reads a reply's fields; a missing or mistyped field is a mismatch naming it.
    init(fields: JSONFields) throws(JSONFields.Mismatch)

    /// The reply's fields as they go on the wire.
    var fields: [String: JSONValue] { get }
}
