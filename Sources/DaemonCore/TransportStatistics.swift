/// What the ingest socket delivered, before decoding.
struct TransportStatistics {
    /// ZeroMQ messages received.
    var messagesReceived: UInt64 = 0
    /// Messages of more than two frames.
    var messagesMalformed: UInt64 = 0
}
