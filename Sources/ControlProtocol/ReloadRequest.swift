/// `{"cmd": "reload"}`: read the configuration again (refused on a `tcp://` endpoint unless
/// the configuration allows it).
public struct ReloadRequest: ControlCommand {
    /// The reply to this request.
    public typealias Reply = ReloadReply

    /// `reload`.
    public static let name = "reload"

    /// The request.
    public init() {}

    /// No fields.
    public var fields: [String: JSONValue] { [:] }
}
