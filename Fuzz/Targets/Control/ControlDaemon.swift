import ControlProtocol
import DaemonCore
import Dispatch
import Foundation
import Logging
import ModalwatchConfig
import RuleHost
import SessionEngine
import ZeroMQ

/// A real daemon (`Daemon.run`) on its own thread, as modalwatchd runs it: `ipc://` endpoints in a private
/// folder, a state directory (so `violations` reads a real history store), the real rule modules,
/// and the demo stream already judged, its sessions left open (so `sessions`, `session` and
/// `violations` have something to report). Requests go to its control `REP` socket over a `REQ` socket.
final class ControlDaemon {
    /// How long a reply may take before the target calls it a hang.
    static let replyTimeoutMs: Int32 = 10_000

    let folder: String
    private let context: ZMQContext
    private let requests: ZMQSocket

    init(catalog: RuleCatalog, stream: [[UInt8]]) {
        folder = "/tmp/modalwatch-fuzz-control-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            Self.fail("cannot create \(folder): \(error)")
        }
        var configuration = DaemonConfiguration()
        configuration.events = ["ipc://\(folder)/events"]
        configuration.publish = "ipc://\(folder)/publish"
        configuration.control = "ipc://\(folder)/control"
        configuration.stateDirectory = folder + "/state"
        configuration.metrics = nil
        // Sessions stay live for the whole run (the idle release is by arrival time).
        configuration.engine.sessionIdleTimeoutMs = 365 * 86_400_000
        // No session checkpoint while it runs: a slice waiting in the writer's queue is held in
        // an enum payload whose pointers carry the enum's tag in their spare bits, which
        // LeakSanitizer does not take for a reference: libFuzzer's leak check would call the
        // queued slice leaked. Checkpoints have their own tests (CheckpointFileTests, e2e).
        configuration.checkpointIntervalMs = 3_600_000
        let fixed = configuration
        let logger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
        let wakeup: Wakeup
        do { wakeup = try Wakeup() } catch { Self.fail("no wake-up descriptor: \(error)") }
        let settings = IngestLoop.Settings(
            configuration: configuration,
            catalog: catalog,
            wakeup: wakeup,
            logger: logger,
            notifier: SystemdNotifier(environment: [:]),
            configurationSource: { fixed }
        )
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                try Daemon.run(settings) { _ in ready.signal() }
            } catch {
                ControlDaemon.fail("the ingest loop failed: \(error)")
            }
            ControlDaemon.fail("the ingest loop stopped")
        }
        thread.name = "modalwatch-ingest"
        thread.start()
        if ready.wait(timeout: .now() + 30) == .timedOut { Self.fail("the ingest loop did not start") }

        do {
            context = try ZMQContext()
            requests = try ZMQSocket(context, type: .req, linger: 0)
            try requests.set(.receiveTimeout, Self.replyTimeoutMs)
            try requests.set(.sendTimeout, Self.replyTimeoutMs)
            try requests.connect(configuration.control)
        } catch {
            Self.fail("cannot connect to the control socket: \(error)")
        }
        // Without its session.end events, so that every session of the stream stays live.
        feed(
            stream.filter { !String(decoding: $0, as: UTF8.self).contains(#""type":"session.end""#) },
            to: configuration.events[0]
        )
    }

    /// Sends one request frame and returns the reply; traps when none comes (a hang is a bug).
    func request(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        do {
            _ = try requests.send(bytes)
            guard let reply = try requests.receiveFrame() else { FuzzCheck.fail("no reply frame") }
            return reply
        } catch {
            FuzzCheck.fail("the control socket did not answer within \(Self.replyTimeoutMs) ms: \(error)")
        }
    }

    /// The daemon's `status`, typed.
    func status() -> StatusReply {
        let reply = Array(StatusRequest().encoded()).withUnsafeBytes { request($0) }
        do {
            return try ControlReply.decode(reply, as: StatusReply.self)
        } catch {
            Self.fail("the status reply does not read: \(error)")
        }
    }

    /// Publishes the stream to the ingest socket until the loop has received all of it.
    private func feed(_ stream: [[UInt8]], to endpoint: String) {
        do {
            let publisher = try ZMQSocket(context, type: .pub, linger: 1000)
            defer { publisher.close() }
            try publisher.connect(endpoint)
            for _ in 0..<50 {
                usleep(100_000)  // the slow joiner: a PUB drops what it sends before the connection is up
                let before = received()
                for line in stream { _ = try publisher.send(line) }
                for _ in 0..<50 where received() < before + stream.count { usleep(20_000) }
                if received() >= before + stream.count { return }
            }
        } catch {
            Self.fail("cannot publish the stream: \(error)")
        }
        Self.fail("the ingest loop did not receive the stream")
    }

    private func received() -> Int {
        status()[.eventsReceived]
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("fuzz: \(message)\n".utf8))
        exit(2)
    }
}
