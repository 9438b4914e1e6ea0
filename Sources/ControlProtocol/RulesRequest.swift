/// `{"cmd": "rules"}`: every loaded rule with its metadata and the parameter values in force.
public struct RulesRequest: ControlCommand {
    /// The reply to this request.
    public typealias Reply = RulesReply

    /// `rules`.
    public static let name = "rules"

    /// The request.
    public init() {}

    /// No fields.
    public var fields: [String: JSONValue] { [:] }
}
