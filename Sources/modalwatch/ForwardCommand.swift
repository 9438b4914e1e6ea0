import ArgumentParser
import ConnectionLimits
import ControlProtocol
import Foundation
import Glibc
import Logging
import ModalwatchConfig
import Posix
import ZeroMQ

/// `modalwatch forward`: a proxy between producers and sharded daemons (scale.md).
/// Producers connect their `PUB`/`XPUB` to the frontend (`XSUB`); daemons connect their ingest
/// with `--events-connect` to the backend (`XPUB`). The daemons' subscriptions travel upstream,
/// within the bounds of a `SubscriptionGuard` (``ForwardingProxy``), so each message goes only
/// to the daemon that owns its bucket.
struct ForwardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forward",
        abstract: "Forward events from producers (XSUB frontend) to sharded daemons (XPUB backend).",
        discussion: """
            Counters (messages and bytes each way) are printed every --stats-interval seconds and on stop. \
            The backend's subscriptions are bounded (1,024 and 256 KiB a connection, 65,536 and 16 MiB in all): \
            past a bound a subscription is refused and counted, and that connection is shut down. \
            SIGTERM or SIGINT stops it cleanly: forwarding pauses, the counters are read, the proxy ends, exit 0. \
            With --curve-key-file the frontend admits only the keys in --allowed-clients, and the backend is \
            encrypted for the daemons' key (--backend-server-key) or an ipc:// endpoint.
            """
    )

    /// The default frontend, where producers connect.
    static let defaultFrontend = "tcp://127.0.0.1:7460"
    /// The default backend, where daemons connect (`--events-connect`).
    static let defaultBackend = "tcp://127.0.0.1:7461"

    @Option(name: .long, help: "Bind the XSUB socket producers connect to here.")
    var frontend: String = Self.defaultFrontend

    @Option(name: .long, help: "Bind the XPUB socket daemons connect to (--events-connect) here.")
    var backend: String = Self.defaultBackend

    @Option(
        name: .customLong("curve-key-file"),
        help:
            "Encrypt the frontend with CURVE: the forwarder's key pair (`modalwatch keygen --output FILE`); needs --allowed-clients."
    )
    var curveKeyFile: String?

    @Option(
        name: .customLong("allowed-clients"),
        help: "With CURVE, the producers' public keys allowed in: one Z85 key a line, `#` comments."
    )
    var allowedClients: String?

    @Option(
        name: .customLong("backend-server-key"),
        help:
            "Encrypt the backend too: the daemons' CURVE public key (their curve.allowed_clients lists this forwarder's key)."
    )
    var backendServerKey: String?

    @Option(name: .customLong("stats-interval"), help: "Seconds between counter lines on stderr (0: only on stop).")
    var statsInterval: Int = 60

    @Flag(name: .long, help: "On stop, print the counters as one JSON object on stdout.")
    var json = false

    func validate() throws {
        if statsInterval < 0 { throw ValidationError("--stats-interval must be 0 or more seconds") }
        if frontend == backend { throw ValidationError("--frontend and --backend must differ") }
    }

    /// Why the flags cannot start a forwarder: one line, exit 2.
    private struct Refusal: Error {
        let line: String
    }

    /// The CURVE settings from the flags, or nil without CURVE.
    private func curveSettings() throws(Refusal) -> (ForwardingThread.Curve, allowed: [String])? {
        guard let curveKeyFile else {
            if allowedClients != nil {
                throw Refusal(line: "--allowed-clients needs --curve-key-file (the forwarder's key pair)")
            }
            if backendServerKey != nil {
                throw Refusal(line: "--backend-server-key needs --curve-key-file (the forwarder's key pair)")
            }
            return nil
        }
        guard let allowedClients else {
            throw Refusal(
                line:
                    "--curve-key-file needs --allowed-clients FILE: the producers' public keys, one a line (without it any client could connect)"
            )
        }
        if let backendServerKey, !CurveKeyFile.isZ85Key(backendServerKey) {
            throw Refusal(
                line:
                    "--backend-server-key: '\(backendServerKey.prefix(12))…' is not a CURVE public key (40 Z85 characters)"
            )
        }
        if backendServerKey == nil, !backend.hasPrefix("ipc://") {
            throw Refusal(
                line:
                    "the backend \(backend) would carry the producers' decrypted events in the clear: encrypt it with --backend-server-key KEY (the daemons' public key) or use an ipc:// backend"
            )
        }
        do {
            let keys = try CurveKeyFile.read(path: curveKeyFile)
            let allowed = try CurveAllowList.read(path: allowedClients)
            return (
                ForwardingThread.Curve(
                    publicKey: keys.publicKey,
                    secretKey: keys.secretKey,
                    backendServerKey: backendServerKey
                ), allowed
            )
        } catch {
            throw Refusal(line: error.description)
        }
    }

    func run() throws {
        let curve: (ForwardingThread.Curve, allowed: [String])?
        do { curve = try curveSettings() } catch {
            Terminal.error(error.line)
            throw ExitCode(2)
        }
        if let refusal = ZMQTransportCheck.refusal(endpoints: [frontend, backend]) {
            Terminal.critical("cannot start: \(refusal)")
            throw ExitCode(1)
        }
        // Taken in this loop, not by a handler; blocked before libzmq starts its threads.
        var signals = BlockedSignals([SIGTERM, SIGINT])
        let context: ZMQContext
        do { context = try ZMQContext(ioThreads: 1) } catch {
            Terminal.error("cannot create a ZeroMQ context: \(error)")
            throw ExitCode(1)
        }
        defer { context.terminate() }
        // The authentication handler is bound before the encrypted frontend exists, and ends after the proxy.
        let authentication = curve.map {
            ForwarderAuthentication(context: context, allowedClients: $0.allowed, allowListPath: allowedClients ?? "")
        }
        do { try authentication?.start() } catch {
            Terminal.error(error.description)
            throw ExitCode(1)
        }
        defer { authentication?.stop() }
        if curve?.allowed.isEmpty == true {
            Terminal.error("\(allowedClients ?? ""): lists no key: every client will be refused")
        }
        let controlEndpoint = "inproc://modalwatch-forward-\(UInt64.random(in: 0...UInt64.max))"
        let proxy = ForwardingThread(
            context: context,
            frontend: frontend,
            backend: backend,
            control: controlEndpoint,
            curve: curve?.0
        )
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
        let guards: ForwarderConnectionGuards
        do {
            guards = try ForwarderConnectionGuards(
                context: context,
                bound: bound,
                logger: Logger(label: "modalwatch forward")
            )
        } catch {
            Terminal.error("cannot watch the forwarder's connections: \(error)")
            _ = try? steering.send(ForwardingProxy.Command.terminate.rawValue)
            proxy.join()
            throw ExitCode(1)
        }
        defer { guards.close() }
        FileHandle.standardError.write(
            Data("forwarding \(bound.frontend) (producers) → \(bound.backend) (daemons)\n".utf8)
        )
        var lastStats = Date()
        while true {
            let taken = signals.take()
            if taken.contains(SIGTERM) || taken.contains(SIGINT) { break }
            if proxy.hasEnded { break }
            guards.serve(waitingMs: 50)
            if statsInterval > 0 && Date().timeIntervalSince(lastStats) >= Double(statsInterval) {
                lastStats = Date()
                if let statistics = Self.ask(steering, .statistics) {
                    FileHandle.standardError.write(
                        Data((Self.line(statistics, authentication?.counts, guards) + "\n").utf8)
                    )
                }
            }
        }
        // A clean stop: pause, read the counters (nothing moves between), terminate.
        _ = try? steering.send(ForwardingProxy.Command.pause.rawValue)
        let final = Self.ask(steering, .statistics)
        _ = try? steering.send(ForwardingProxy.Command.terminate.rawValue)
        proxy.join()
        if let final {
            let counts = authentication?.counts
            FileHandle.standardError.write(Data(("stopped; " + Self.line(final, counts, guards) + "\n").utf8))
            if json {
                JSONOutput.line([
                    "curve": .bool(curve != nil), "backend_encrypted": .bool(curve?.0.backendServerKey != nil),
                    "clients_accepted": .unsigned(counts?.accepted ?? 0),
                    "clients_refused": .unsigned(counts?.refused ?? 0),
                    "frontend": .string(bound.frontend), "backend": .string(bound.backend),
                    "messages_forwarded": .unsigned(final.backendMessagesOut),
                    "bytes_forwarded": .unsigned(final.backendBytesOut),
                    "messages_received": .unsigned(final.frontendMessagesIn),
                    "bytes_received": .unsigned(final.frontendBytesIn),
                    "subscriptions_forwarded": .unsigned(final.frontendMessagesOut),
                    "subscription_bytes_forwarded": .unsigned(final.frontendBytesOut),
                    "frontend_connections_refused": .unsigned(guards.frontend.refused),
                    "backend_connections_refused": .unsigned(guards.backend.refused),
                    "subscriptions_refused": .unsigned(final.subscriptionsRefused),
                ])
            }
        }
        if let failure = proxy.failure {
            Terminal.error("the proxy stopped: \(failure)")
            throw ExitCode(1)
        }
    }

    /// One command on the control socket; the counters for ``ForwardingProxy/Command/statistics``.
    private static func ask(_ socket: ZMQSocket, _ command: ForwardingProxy.Command) -> ForwardingProxy.Statistics? {
        guard (try? socket.send(command.rawValue)) != nil,
            let reply = try? socket.receiveMultipart(maxFrames: 9)
        else { return nil }
        return ForwardingProxy.Statistics(frames: reply.frames)
    }

    private static func line(
        _ s: ForwardingProxy.Statistics,
        _ counts: ForwarderAuthentication.Counts?,
        _ guards: ForwarderConnectionGuards
    ) -> String {
        "producers → daemons: \(s.frontendMessagesIn) messages, \(s.frontendBytesIn) bytes in, \(s.backendMessagesOut) messages, \(s.backendBytesOut) bytes out; "
            + "daemons → producers: \(s.backendMessagesIn) subscription messages, \(s.frontendMessagesOut) forwarded, \(s.subscriptionsRefused) subscriptions refused"
            + (counts.map { "; CURVE clients \($0.accepted) accepted, \($0.refused) refused" } ?? "")
            + "; connections refused past the limit: \(guards.frontend.refused) producers, \(guards.backend.refused) daemons"
    }
}
