import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import Logging
import ModalwatchClient
import ModalwatchConfig
import ShardRouting

/// `modalwatch send`: publish recorded event streams to one daemon or to sharded daemons,
/// through `ModalwatchClient` (batches with shard topics, counted drops).
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Publish recorded event streams (NDJSON) to daemons, as fast as allowed or at N events/s."
    )

    @Argument(help: "NDJSON files of events; - reads stdin.")
    var files: [String]

    @Option(
        name: .long,
        help: "A daemon's ingest endpoint, or a forwarder's frontend (repeatable; the daemon binds, send connects)."
    )
    var events: [String] = []

    @Option(name: .long, help: "Events per second (default: as fast as allowed).")
    var rate: Double?

    @Option(name: .long, help: "Most events per message (NDJSON batches of one bucket), 1 to 1024.")
    var batch: Int = 1

    @Option(
        name: .customLong("shard-count"),
        help: "The daemons are sharded N ways: wait until every bucket the stream uses has its daemon."
    )
    var shardCount: Int?

    @Option(
        name: .customLong("shard-key"),
        help: "What buckets are computed from: app (default) or session; as the daemons."
    )
    var shardKey: String = "app"

    @Option(
        name: .customLong("curve-server-key"),
        help: "The daemon's (or forwarder's) CURVE public key, when ingest is encrypted."
    )
    var curveServerKey: String?

    @Option(
        name: .customLong("curve-key-file"),
        help: "This client's CURVE key pair (`modalwatch keygen --output FILE`)."
    )
    var curveKeyFile: String?

    @Option(
        name: .customLong("replay-window"),
        help:
            "Keep the last N events sent and send them again to a daemon that subscribes anew, as after a restart (0 to 1000000; 0: none). Default: the client library's 10000 when every event has a seq, else 0."
    )
    var replayWindow: Int?

    @Option(
        name: .customLong("replay-window-bytes"),
        help: "The most encoded bytes the replay window keeps, 1 to 1073741824 (8 MiB)."
    )
    var replayWindowBytes: Int = 8 * 1024 * 1024

    @Option(name: .long, help: "Milliseconds to wait for the daemons to subscribe before giving up (exit 3).")
    var timeout: Int = 5000

    @Flag(name: .long, help: "Print a JSON summary (events, messages, seconds, rate, drops) on stdout.")
    var json = false

    /// The endpoints named with `--events`, or the default one.
    var endpoints: [String] { events.isEmpty ? [DefaultEndpoints.events] : events }

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one NDJSON file, or - for stdin") }
        if batch < 1 || batch > 1024 { throw ValidationError("--batch must be 1 to 1024") }
        if let rate, rate <= 0 || !rate.isFinite { throw ValidationError("--rate must be a number above 0") }
        if timeout < 1 { throw ValidationError("--timeout must be 1 ms or more") }
        if let replayWindow, !(0...1_000_000).contains(replayWindow) {
            throw ValidationError("--replay-window must be 0 (none) to 1000000 events")
        }
        if !(1...(1 << 30)).contains(replayWindowBytes) {
            throw ValidationError("--replay-window-bytes must be 1 to 1073741824")
        }
        if let shardCount, !(1...ShardAssignment.maximumCount).contains(shardCount) {
            throw ValidationError("--shard-count must be 1 to 256")
        }
        if ShardKey(rawValue: shardKey) == nil {
            throw ValidationError("--shard-key must be app or session, not '\(shardKey)'")
        }
        if (curveServerKey == nil) != (curveKeyFile == nil) {
            throw ValidationError("CURVE needs both --curve-server-key and --curve-key-file")
        }
        if let curveServerKey, !CurveKeyFile.isZ85Key(curveServerKey) {
            throw ValidationError("--curve-server-key must be a CURVE public key (40 Z85 characters)")
        }
    }

    func run() throws {
        let endpoints = self.endpoints
        let lines = try readLines()
        let stream = RecordedStream(lines: lines)
        var configuration = ClientConfiguration(endpoints: endpoints)
        configuration.shardKey = ShardKey(rawValue: shardKey) ?? .app
        configuration.maxBatchEvents = batch
        configuration.maxBatchBytes = 200 * 1024
        configuration.lingerMs = 30_000
        configuration.stallTimeoutMs = 10_000
        // Events without seq cannot be told from a replay's duplicates: no replay for them unless asked.
        let replayWindow = self.replayWindow ?? (stream.withoutSeq > 0 ? 0 : configuration.replayWindowEvents)
        configuration.replayWindowEvents = replayWindow
        configuration.replayWindowBytes = replayWindowBytes
        if self.replayWindow == nil && stream.withoutSeq > 0 {
            Terminal.error(
                "note: \(stream.withoutSeq) events carry no seq: no replay window (--replay-window N sends them again all the same)"
            )
        } else if replayWindow > 0 && stream.withoutSeq > 0 {
            Terminal.error(
                "warning: \(stream.withoutSeq) events carry no seq: a daemon cannot tell them from a replay's duplicates, "
                    + "so one that subscribes anew judges them twice; give every event a seq, or pass --replay-window 0"
            )
        }
        if let curveServerKey, let curveKeyFile {
            do {
                let keys = try CurveKeyFile.read(path: curveKeyFile)
                configuration.curve = ClientCurveKeys(
                    serverKey: curveServerKey,
                    publicKey: keys.publicKey,
                    secretKey: keys.secretKey
                )
            } catch {
                Terminal.error("\(error.description)")
                throw ExitCode(2)
            }
        }
        var logger = Logger(label: "modalwatch-send")
        logger.logLevel = .warning
        let client: ModalwatchClient
        do {
            client = try ModalwatchClient(configuration: configuration, logger: logger)
        } catch {
            Terminal.error("\(error.description)")
            throw ExitCode(2)
        }
        let needed = Set(stream.items.map { client.bucket(app: $0.app, session: $0.session) })
        try waitForDaemons(client, needed: needed, endpoints: endpoints)
        let start = Date()
        publish(stream, client)
        client.close()
        let seconds = Date().timeIntervalSince(start)
        try report(
            client.statistics,
            events: lines.count,
            seconds: seconds,
            endpoints: endpoints,
            replayWindow: replayWindow,
            unplaced: shardCount != nil && configuration.shardKey == .app ? stream.unplaced : 0,
            unplacedBucket: client.bucket(app: "", session: "")
        )
    }

    private func readLines() throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for file in files {
            guard
                let data = file == "-"
                    ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
            else {
                Terminal.error("cannot read '\(file)'; check the path and permissions")
                throw ExitCode(2)
            }
            for line in data.split(separator: 0x0A) where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                lines.append([UInt8](line))
            }
        }
        return lines
    }

    /// Waits until some daemon subscribed (and, with `--shard-count`, every bucket needed has
    /// one). None at all is exit 3; some buckets missing is a warning: their events are counted as dropped.
    private func waitForDaemons(_ client: ModalwatchClient, needed: Set<ShardBucket>, endpoints: [String]) throws {
        let deadline = Date().addingTimeInterval(Double(timeout) / 1000)
        func covered() -> Int { needed.filter(client.hasSubscriber(for:)).count }
        func ready() -> Bool {
            shardCount == nil ? (client.statistics.bucketsSubscribed > 0) : covered() == needed.count
        }
        while !ready() && Date() < deadline { usleep(2000) }
        if client.statistics.bucketsSubscribed == 0 {
            client.close()
            Terminal.error(
                "no modalwatchd subscribed at \(endpoints.joined(separator: ", ")) within \(timeout) ms; is it running? (or pass --events)"
            )
            throw ExitCode(3)
        }
        let missing = needed.count - covered()
        if missing > 0 {
            Terminal.error(
                "warning: \(missing) of the stream's \(needed.count) buckets have no daemon subscribed; their events are dropped and counted"
            )
        }
    }

    private func publish(_ stream: RecordedStream, _ client: ModalwatchClient) {
        let showProgress = Terminal.isTerminal(STDERR_FILENO)
        let start = Date()
        var lastProgress = Date.distantPast
        let capacity = client.configuration.queueCapacity
        for (index, item) in stream.items.enumerated() {
            // A replay waits for room rather than dropping: the queue itself never blocks.
            while client.queuedCount >= capacity - 1 { usleep(200) }
            client.publish(encoded: item.bytes, app: item.app, session: item.session)
            let sent = index + 1
            if let rate {
                let due = start.addingTimeInterval(Double(sent) / rate)
                let wait = due.timeIntervalSinceNow
                if wait > 0 { usleep(useconds_t(min(wait, 1) * 1_000_000)) }
            }
            if showProgress && Date().timeIntervalSince(lastProgress) > 0.2 {
                lastProgress = Date()
                let elapsed = Date().timeIntervalSince(start)
                let current = elapsed > 0 ? String(format: "%.0f", Double(sent) / elapsed) : "-"
                FileHandle.standardError.write(
                    Data(
                        "\rsent \(sent)/\(stream.items.count) events (\(sent * 100 / stream.items.count)%), \(current)/s\u{1B}[K"
                            .utf8
                    )
                )
            }
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    private func report(
        _ statistics: ClientStatistics,
        events: Int,
        seconds: Double,
        endpoints: [String],
        replayWindow: Int,
        unplaced: Int,
        unplacedBucket: ShardBucket
    ) throws {
        let rateText = seconds > 0 ? String(format: "%.0f", Double(events) / seconds) : "-"
        var line = "sent \(statistics.eventsSent) events in \(String(format: "%.2f", seconds)) s (\(rateText)/s)"
        if statistics.eventsDroppedNoSubscriber > 0 {
            line += "; \(statistics.eventsDroppedNoSubscriber) dropped: no daemon subscribed to their bucket"
        }
        if statistics.eventsDroppedStalled > 0 {
            line += "; \(statistics.eventsDroppedStalled) dropped: a daemon took nothing for 10 s"
        }
        if replayWindow > 0 { line += "; \(statistics.eventsReplayed) replayed to daemons that subscribed anew" }
        FileHandle.standardError.write(Data((line + "\n").utf8))
        if unplaced > 0 {
            Terminal.error(
                "\(unplaced) events name no app and continue sessions whose start this send did not carry: they went to bucket \(unplacedBucket)'s daemon, "
                    + "which judges them without their session's start; write `app` on every event (the client library does)"
            )
        }
        if json {
            JSONOutput.line([
                "events": .int(events), "events_sent": .int(Int(statistics.eventsSent)),
                "messages": .int(Int(statistics.messagesSent)), "bytes": .int(Int(statistics.bytesSent)),
                "seconds": .number(seconds), "endpoint": .string(endpoints[0]),
                "endpoints": .array(endpoints.map(JSONValue.string)),
                "events_per_second": seconds > 0 ? .number(Double(events) / seconds) : .null,
                "rate_limit": rate.map(JSONValue.number) ?? .null,
                "shard_count": shardCount.map(JSONValue.int) ?? .null, "shard_key": .string(shardKey),
                "events_dropped_no_subscriber": .int(Int(statistics.eventsDroppedNoSubscriber)),
                "messages_dropped_no_subscriber": .int(Int(statistics.messagesDroppedNoSubscriber)),
                "events_dropped_stalled": .int(Int(statistics.eventsDroppedStalled)),
                "events_dropped_queue_full": .int(Int(statistics.eventsDroppedQueueFull)),
                "events_unplaced": .int(unplaced),
                "events_replayed": .int(Int(statistics.eventsReplayed)),
                "replay_window": .int(replayWindow),
                "replay_window_overflows": .int(Int(statistics.replayWindowOverflows)),
            ])
        }
        if statistics.eventsDroppedStalled > 0 {
            Terminal.error(
                "a daemon at \(endpoints.joined(separator: ", ")) took no event for 10 s; is it still running?"
            )
            throw ExitCode(3)
        }
    }
}
