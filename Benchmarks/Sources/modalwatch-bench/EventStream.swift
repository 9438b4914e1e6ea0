/// A generated stream: every event's JSON, back to back, with where each starts.
struct EventStream: Sendable {
    /// The events' bytes, with no separators.
    let bytes: [UInt8]
    /// `offsets[i]..<offsets[i + 1]` is event `i`; one more entry than events.
    let offsets: [Int]

    /// The events `bytes` and `offsets` give.
    init(bytes: [UInt8], offsets: [Int]) {
        self.bytes = bytes
        self.offsets = offsets
    }

    /// The events of an NDJSON file's bytes, one a line.
    init(ndjson: [UInt8]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ndjson.count)
        var offsets = [0]
        var start = 0
        for (index, byte) in ndjson.enumerated() where byte == 0x0A {
            if index > start {
                bytes.append(contentsOf: ndjson[start..<index])
                offsets.append(bytes.count)
            }
            start = index + 1
        }
        if start < ndjson.count {
            bytes.append(contentsOf: ndjson[start...])
            offsets.append(bytes.count)
        }
        self.init(bytes: bytes, offsets: offsets)
    }

    /// The number of events.
    var count: Int { offsets.count - 1 }

    /// Event `index`'s bytes.
    func event(_ index: Int) -> ArraySlice<UInt8> {
        bytes[offsets[index]..<offsets[index + 1]]
    }

    /// Bytes per event on average, without the newline of an NDJSON file.
    var averageEventBytes: Double {
        count == 0 ? 0 : Double(offsets[count] - offsets[0]) / Double(count)
    }

    /// The first `count` events as messages of `batch` events each (NDJSON, no trailing newline).
    func messages(first count: Int? = nil, batch: Int) -> MessageSet {
        let total = Swift.min(count ?? self.count, self.count)
        var builder = MessageSet.Builder(capacity: offsets[total] - offsets[0] + total)
        var index = 0
        while index < total {
            let end = Swift.min(index + batch, total)
            builder.begin()
            for i in index..<end {
                if i > index { builder.byte(0x0A) }
                builder.append(event(i))
            }
            builder.end(events: end - index)
            index = end
        }
        return builder.build()
    }

    /// The events from `index` on (sharing the bytes).
    func dropping(first index: Int) -> EventStream {
        EventStream(bytes: bytes, offsets: Array(offsets[Swift.min(index, count)...]))
    }

    /// The stream as an NDJSON file's bytes: one event a line.
    func ndjson() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + count)
        for i in 0..<count {
            out.append(contentsOf: event(i))
            out.append(0x0A)
        }
        return out
    }
}
