/// What the ingest socket delivered, before decoding.
struct TransportStatistics {
    /// ZeroMQ messages received.
    var messagesReceived: UInt64 = 0
    /// Messages of more than two frames.
    var messagesMalformed: UInt64 = 0
    /// Messages whose topic frame was over `EventLimits.maxTopicBytes` (rejected too_large).
    var topicsTooLarge: UInt64 = 0
}
