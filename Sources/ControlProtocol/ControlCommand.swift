/// A request of the control protocol (docs/control-protocol.md), typed: a client sends one
/// and gets its ``Reply`` back (``ControlClient/send(_:)``); the daemon reads any of them as a
/// ``ControlRequest``.
public protocol ControlCommand: Sendable, Equatable {
    /// The reply this request gets when the daemon does what it asks.
    associatedtype Reply: ControlReplyBody

    /// The request's `"cmd"`.
    static var name: String { get }

    /// The request's fields besides `"cmd"` and `"v"`.
    var fields: [String: JSONValue] { get }
}

extension ControlCommand {
    /// The request as one frame: its fields, `"cmd"` and `"v"`, keys sorted.
    public func encoded() -> [UInt8] {
        var object = fields
        object["cmd"] = .string(Self.name)
        object["v"] = .int(ModalwatchVersion.controlProtocol)
        return JSONWriter.encode(object, capacity: 128)
    }
}
