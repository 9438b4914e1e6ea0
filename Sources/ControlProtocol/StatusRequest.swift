/// `{"cmd": "status"}`: the daemon's version, uptime, modules and counters.
public struct StatusRequest: ControlCommand {
    /// The reply to this request.
    public typealias Reply = StatusReply

    /// `status`.
    public static let name = "status"

    /// The request.
    public init() {}

    /// No fields.
    public var fields: [String: JSONValue] { [:] }
}
