/// The events the bench makes besides the generated stream: the warm-up event,
/// the latency probes, and the idle sessions of the memory run.
enum BenchEvents {
    /// The app of the bench's own events; the generated stream never uses it.
    static let app = "com.example.bench"
    /// The topic of the one violation a probe is built to trigger.
    static let probeTopic = "violation/\(app)/alert-title-single-word"

    /// One warm-up message: a `session.start` of a session of its own.
    static func warmupStart() -> MessageSet {
        var out = ByteWriter()
        out.raw("{\"v\":1,\"type\":\"session.start\",\"session\":\"bench-warmup\",\"ts\":")
        out.integer(StreamGenerator.t0)
        out.raw(",\"seq\":1,\"app\":")
        out.string(app)
        out.raw(",\"device\":\"phone\"}")
        var builder = MessageSet.Builder(capacity: out.count)
        builder.append(out.take())
        builder.end(events: 1)
        return builder.build()
    }

    /// An alert titled only "Error", the first and only event of session `PREFIX` + `index`
    /// (eight digits): `alert-title-single-word` fires at once, once per probe.
    static func probe(_ out: inout ByteWriter, prefix: String, index: Int) {
        out.raw("{\"v\":1,\"type\":\"alert.presented\",\"session\":\"")
        out.raw(prefix)
        out.padded(index, width: 8)
        out.raw("\",\"ts\":")
        out.integer(StreamGenerator.t0 + index)
        out.raw(",\"seq\":1,\"app\":")
        out.string(app)
        out.raw(",\"id\":\"probe\",\"title\":\"Error\",\"message\":\"The file could not be saved.\",")
        out.raw(
            "\"buttons\":[{\"title\":\"Cancel\",\"style\":\"cancel\"},{\"title\":\"Retry\",\"style\":\"default\"}]}"
        )
    }

    /// `count` warm-up probes, one a message.
    static func warmupProbes(_ count: Int) -> MessageSet {
        var builder = MessageSet.Builder(capacity: count * 220)
        for i in 0..<count {
            var out = ByteWriter(capacity: 220)
            probe(&out, prefix: ViolationReceiver.warmupPrefix, index: i)
            builder.append(out.take())
            builder.end(events: 1)
        }
        return builder.build()
    }

    /// The latency run's messages: single events of `stream`, with a probe as every
    /// `probeEvery`-th message (index `i % probeEvery == probeEvery - 1`, probe `i / probeEvery`).
    static func latencyMessages(_ stream: EventStream, count: Int, probeEvery: Int) -> MessageSet {
        var builder = MessageSet.Builder(capacity: count * 200)
        var next = 0
        for i in 0..<count {
            if i % probeEvery == probeEvery - 1 {
                var out = ByteWriter(capacity: 220)
                probe(&out, prefix: ViolationReceiver.probePrefix, index: i / probeEvery)
                builder.append(out.take())
            } else {
                builder.append(stream.event(next % stream.count))
                next += 1
            }
            builder.end(events: 1)
        }
        return builder.build()
    }

    /// `count` sessions that start and then stay idle: `session.start` events like the
    /// stream's (ids `sNNNNNNNN-xxxxxxxx`, the stream's apps and fields), the same for a given
    /// `seed`.
    static func idleSessions(_ count: Int, seed: UInt32) -> EventStream {
        let apps = [
            "com.example.mail", "com.example.photos", "com.example.notes", "com.example.shop", "com.example.maps",
        ]
        let devices = ["phone", "phone", "pad"]
        var out = ByteWriter(capacity: count * 170)
        var offsets = [0]
        offsets.reserveCapacity(count + 1)
        for i in 0..<count {
            // Knuth's multiplicative hash of the index: ids and times spread, no generator state.
            let mixed = UInt32(truncatingIfNeeded: i &+ Int(seed)) &* 2_654_435_761
            out.raw("{\"v\":1,\"type\":\"session.start\",\"session\":\"s")
            out.padded(i, width: 8)
            out.byte(0x2D)
            out.hex(mixed, width: 8)
            out.raw("\",\"ts\":")
            out.integer(StreamGenerator.t0 + Int(mixed % 60_000))
            out.raw(",\"seq\":1,\"app\":")
            out.string(apps[Int(mixed >> 8) % apps.count])
            out.raw(",\"app_version\":\"4.2.1\",\"os\":\"iOS 18.1\",\"device\":")
            out.string(devices[Int(mixed >> 16) % devices.count])
            out.byte(0x7D)
            offsets.append(out.count)
        }
        return EventStream(bytes: out.take(), offsets: offsets)
    }
}
