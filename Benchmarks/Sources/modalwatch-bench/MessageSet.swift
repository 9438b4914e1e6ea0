/// ZeroMQ message payloads prepared before a measurement, back to back in one
/// buffer, so that sending allocates nothing.
struct MessageSet: Sendable {
    /// Every payload, back to back.
    let bytes: [UInt8]
    /// `offsets[i]..<offsets[i + 1]` is message `i`.
    let offsets: [Int]
    /// Events in all messages.
    let events: Int

    /// The number of messages.
    var count: Int { offsets.count - 1 }

    /// Calls `body` with message `index`'s bytes.
    func withMessage<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[offsets[index]..<offsets[index + 1]]))
        }
    }

    /// Builds a set message by message.
    struct Builder {
        private var bytes: [UInt8] = []
        private var offsets: [Int] = [0]
        private var events = 0

        /// A builder with room for `capacity` bytes.
        init(capacity: Int) {
            bytes.reserveCapacity(capacity)
        }

        /// Starts a message.
        mutating func begin() {}

        /// Appends bytes to the current message.
        mutating func append(_ slice: ArraySlice<UInt8>) {
            bytes.append(contentsOf: slice)
        }

        /// Appends bytes to the current message.
        mutating func append(_ array: [UInt8]) {
            bytes.append(contentsOf: array)
        }

        /// Appends one byte to the current message.
        mutating func byte(_ value: UInt8) {
            bytes.append(value)
        }

        /// Ends the current message, which holds `events` events.
        mutating func end(events: Int) {
            offsets.append(bytes.count)
            self.events += events
        }

        /// The finished set.
        func build() -> MessageSet {
            MessageSet(bytes: bytes, offsets: offsets, events: events)
        }
    }
}
