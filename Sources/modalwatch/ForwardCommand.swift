import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import ModalwatchConfig
import ZeroMQ

/// `modalwatch forward`: libzmq's own proxy between producers and sharded daemons (scale.md).
/// Producers connect their `PUB`/`XPUB` to the frontend (`XSUB`); daemons connect their ingest
/// with `--events-connect` to the backend (`XPUB`). The daemons' subscriptions travel upstream,
/// so each message goes only to the daemon that owns its bucket.
struct ForwardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forward",
        abstract: "Forward events from producers (XSUB frontend) to sharded daemons (XPUB backend) with zmq_proxy.",
        discussion: """
            Counters (messages and bytes each way) are printed every --stats-interval seconds and on stop. \
            SIGTERM or SIGINT stops it cleanly: forwarding pauses, the counters are read, the proxy ends, exit 0.
            """)

    /// The default frontend, where producers connect.
    static let defaultFrontend = "tcp://127.0.0.1:7460"
    /// The default backend, where daemons connect (`--events-connect`).
    static let defaultBackend = "tcp://127.0.0.1:7461"

    @Option(name: .long, help: "Bind the XSUB socket producers connect to here.")
    var frontend: String = Self.defaultFrontend

    @Option(name: .long, help: "Bind the XPUB socket daemons connect to (--events-connect) here.")
    var backend: String = Self.defaultBackend

    @Option(name: .customLong("curve-key-file"), help: "Encrypt the frontend with CURVE: the forwarder's key pair (`modalwatch keygen --output FILE`).")
    var curveKeyFile: String?

    @Option(name: .customLong("stats-interval"), help: "Seconds between counter lines on stderr (0: only on stop).")
    var statsInterval: Int = 60

    @Flag(name: .long, help: "On stop, print the counters as one JSON object on stdout.")
    var json = false

    func validate() throws {
        if statsInterval < 0 { throw ValidationError("--stats-interval must be 0 or more seconds") }
        if frontend == backend { throw ValidationError("--frontend and --backend must differ") }
    }

    func run() throws {
        var secretKey: String?
        if let curveKeyFile {
            do { secretKey = try CurveKeyFile.read(path: curveKeyFile).secretKey } catch {
                Terminal.error(error.description)
                throw ExitCode(2)
            }
        }
        // Taken in this loop, not by a handler; blocked before libzmq starts its threads.
        var signals = BlockedSignals([SIGTERM, SIGINT])
        let context: ZMQContext
        do { context = try ZMQContext(ioThreads: 1) } catch {
            Terminal.error("cannot create a ZeroMQ context: \(error)")
            throw ExitCode(1)
        }
        defer { context.terminate() }
        let controlEndpoint = "inproc://modalwatch-forward-\(UInt64.random(in: 0...UInt64.max))"
        let proxy = ForwardingThread(
            context: context, frontend: frontend, backend: backend, control: controlEndpoint, curveSecretKey: secretKey)
        let bound: (frontend: String, backend: String)
        do { bound = try proxy.start() } catch {
            Terminal.error(error.description)
            throw ExitCode(error.isEndpoint ? 2 : 1)
        }
        let steering: ZMQSocket
        do {
            steering = try ZMQSocket(context, type: .pair, linger: 0)
            try steering.set(.receiveTimeout, 2000)
            try steering.connect(controlEndpoint)
        } catch {
            Terminal.error("cannot reach the proxy's control socket: \(error)")
            context.shutdown()
            proxy.join()
            throw ExitCode(1)
        }
        defer { steering.close() }
        FileHandle.standardError.write(Data("forwarding \(bound.frontend) (producers) → \(bound.backend) (daemons)\n".utf8))
        var lastStats = Date()
        while true {
            let taken = signals.take()
            if taken.contains(SIGTERM) || taken.contains(SIGINT) { break }
            if proxy.hasEnded { break }
            usleep(50_000)
            if statsInterval > 0 && Date().timeIntervalSince(lastStats) >= Double(statsInterval) {
                lastStats = Date()
                if let statistics = Self.ask(steering, .statistics) { FileHandle.standardError.write(Data((Self.line(statistics) + "\n").utf8)) }
            }
        }
        // A clean stop: pause, read the counters (nothing moves between), terminate.
        _ = try? steering.send(ZMQProxy.Command.pause.rawValue)
        let final = Self.ask(steering, .statistics)
        _ = try? steering.send(ZMQProxy.Command.terminate.rawValue)
        proxy.join()
        if let final {
            FileHandle.standardError.write(Data(("stopped; " + Self.line(final) + "\n").utf8))
            if json {
                JSONOutput.line([
                    "frontend": .string(bound.frontend), "backend": .string(bound.backend),
                    "messages_forwarded": .unsigned(final.backendMessagesOut), "bytes_forwarded": .unsigned(final.backendBytesOut),
                    "messages_received": .unsigned(final.frontendMessagesIn), "bytes_received": .unsigned(final.frontendBytesIn),
                    "subscriptions_forwarded": .unsigned(final.frontendMessagesOut), "subscription_bytes_forwarded": .unsigned(final.frontendBytesOut),
                ])
            }
        }
        if let failure = proxy.failure {
            Terminal.error("the proxy stopped: \(failure)")
            throw ExitCode(1)
        }
    }

    /// One command on the control socket; the counters for ``ZMQProxy/Command/statistics``.
    private static func ask(_ socket: ZMQSocket, _ command: ZMQProxy.Command) -> ZMQProxy.Statistics? {
        guard (try? socket.send(command.rawValue)) != nil,
              let reply = try? socket.receiveMultipart(maxFrames: 8) else { return nil }
        return ZMQProxy.Statistics(frames: reply.frames)
    }

    private static func line(_ s: ZMQProxy.Statistics) -> String {
        "producers → daemons: \(s.frontendMessagesIn) messages, \(s.frontendBytesIn) bytes in, \(s.backendMessagesOut) messages, \(s.backendBytesOut) bytes out; "
            + "daemons → producers: \(s.backendMessagesIn) subscription messages, \(s.frontendMessagesOut) forwarded"
    }
}
