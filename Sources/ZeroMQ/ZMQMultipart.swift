/// A whole multipart message read by ``ZMQSocket/receiveMultipart(maxFrames:dontWait:)``.
public struct ZMQMultipart: Hashable, Sendable {
    /// The first frames of the message, at most the `maxFrames` asked for.
    public var frames: [[UInt8]]
    /// How many frames the message had, including those drained and dropped past `maxFrames`.
    public var frameCount: Int

    /// Creates a result.
    public init(frames: [[UInt8]], frameCount: Int) {
        self.frames = frames
        self.frameCount = frameCount
    }

    /// `true` when the message had more frames than were kept.
    public var isTruncated: Bool {
        self.frameCount > self.frames.count
    }
}
