import CZeroMQ

/// The type of a ZeroMQ socket (`ZMQ_PUB`, `ZMQ_SUB`, …).
///
/// A struct rather than an enum so that types libzmq adds later can be named with
/// ``init(rawValue:)`` without a new release of this module.
public struct ZMQSocketType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The libzmq constant.
    public let rawValue: Int32

    /// Wraps a libzmq socket-type constant.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `ZMQ_PAIR`: exclusive pair.
    public static let pair = ZMQSocketType(rawValue: ZMQ_PAIR)
    /// `ZMQ_PUB`: publisher.
    public static let pub = ZMQSocketType(rawValue: ZMQ_PUB)
    /// `ZMQ_SUB`: subscriber.
    public static let sub = ZMQSocketType(rawValue: ZMQ_SUB)
    /// `ZMQ_REQ`: request side of request–reply.
    public static let req = ZMQSocketType(rawValue: ZMQ_REQ)
    /// `ZMQ_REP`: reply side of request–reply.
    public static let rep = ZMQSocketType(rawValue: ZMQ_REP)
    /// `ZMQ_DEALER`: asynchronous request.
    public static let dealer = ZMQSocketType(rawValue: ZMQ_DEALER)
    /// `ZMQ_ROUTER`: asynchronous reply, addressed by routing id.
    public static let router = ZMQSocketType(rawValue: ZMQ_ROUTER)
    /// `ZMQ_PULL`: pipeline receiver.
    public static let pull = ZMQSocketType(rawValue: ZMQ_PULL)
    /// `ZMQ_PUSH`: pipeline sender.
    public static let push = ZMQSocketType(rawValue: ZMQ_PUSH)
    /// `ZMQ_XPUB`: publisher that sees subscriptions.
    public static let xpub = ZMQSocketType(rawValue: ZMQ_XPUB)
    /// `ZMQ_XSUB`: subscriber that sends subscriptions as messages.
    public static let xsub = ZMQSocketType(rawValue: ZMQ_XSUB)

    /// The usual name, e.g. `PUB`.
    public var description: String {
        switch self {
        case .pair: "PAIR"
        case .pub: "PUB"
        case .sub: "SUB"
        case .req: "REQ"
        case .rep: "REP"
        case .dealer: "DEALER"
        case .router: "ROUTER"
        case .pull: "PULL"
        case .push: "PUSH"
        case .xpub: "XPUB"
        case .xsub: "XSUB"
        default: "socket type \(self.rawValue)"
        }
    }
}
