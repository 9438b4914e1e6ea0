import CZeroMQ

/// The events a ``ZMQPoller`` item waits for, or reports.
public struct ZMQPollEvents: OptionSet, Hashable, Sendable {
    /// The libzmq event bits.
    public let rawValue: Int16

    /// Wraps libzmq event bits.
    public init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// `ZMQ_POLLIN`: a message can be received (a file descriptor is readable).
    public static let readable = ZMQPollEvents(rawValue: Int16(ZMQ_POLLIN))
    /// `ZMQ_POLLOUT`: a message can be sent (a file descriptor is writable).
    public static let writable = ZMQPollEvents(rawValue: Int16(ZMQ_POLLOUT))
    /// `ZMQ_POLLERR`: an error condition on a file descriptor (never reported for sockets).
    public static let error = ZMQPollEvents(rawValue: Int16(ZMQ_POLLERR))
}
