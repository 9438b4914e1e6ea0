import CZeroMQ

/// Flags for `ZMQSocket.send(_:flags:)`.
public struct ZMQSendFlags: OptionSet, Hashable, Sendable {
    /// The libzmq flag bits.
    public let rawValue: Int32

    /// Wraps libzmq flag bits.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `ZMQ_SNDMORE`: more frames of the same message follow.
    public static let more = ZMQSendFlags(rawValue: ZMQ_SNDMORE)
    /// `ZMQ_DONTWAIT`: do not block; the send reports `false` instead of waiting.
    public static let dontWait = ZMQSendFlags(rawValue: ZMQ_DONTWAIT)
}
