import CurveAuthentication
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// The forwarder's CURVE authentication: a thread that owns the ``ZapHandler`` (its `REP`
/// socket on `inproc://zeromq.zap.01`) for its whole life, answers libzmq's requests for the
/// encrypted frontend, and keeps the counts of clients let in and refused for the main thread.
final class ForwarderAuthentication: Sendable {
    /// Clients let in and refused so far.
    struct Counts: Sendable {
        var accepted: UInt64 = 0
        var refused: UInt64 = 0
    }

    private let context: ZMQContext
    private let allowedClients: [String]
    private let allowListPath: String
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let state = Mutex<(counts: Counts, failure: String?, stop: Bool)>((Counts(), nil, false))

    init(context: ZMQContext, allowedClients: [String], allowListPath: String) {
        self.context = context
        self.allowedClients = allowedClients
        self.allowListPath = allowListPath
    }

    /// Starts the thread; returns once the handler is bound (before any encrypted socket exists).
    func start() throws(ForwardingThread.Failure) {
        let thread = Thread { [self] in run() }
        thread.name = "modalwatch-zap"
        thread.start()
        started.wait()
        if let failure = state.withLock({ $0.failure }) {
            finished.wait()
            throw ForwardingThread.Failure(description: failure, isEndpoint: false)
        }
    }

    /// The counts so far.
    var counts: Counts { state.withLock { $0.counts } }

    /// Asks the thread to close its socket and end; waits for it.
    func stop() {
        state.withLock { $0.stop = true }
        finished.wait()
    }

    private func run() {
        defer { finished.signal() }
        let logger = Logger(label: "modalwatch-forward", factory: { StreamLogHandler.standardError(label: $0) })
        let handler: ZapHandler
        let poller = ZMQPoller()
        do throws(ZapHandler.Failure) {
            handler = try ZapHandler(context: context, allowedClients: allowedClients, what: allowListPath, logger: logger)
        } catch {
            state.withLock { $0.failure = error.description }
            started.signal()
            return
        }
        defer { handler.close() }
        guard let index = try? poller.add(handler.socket) else {
            state.withLock { $0.failure = "cannot poll the CURVE authentication handler" }
            started.signal()
            return
        }
        started.signal()
        while !state.withLock({ $0.stop }) {
            do { _ = try poller.poll(timeout: 100) } catch where error.isInterrupted { continue } catch { break }
            if poller.isReadable(index) {
                handler.serve()
                let counts = Counts(accepted: handler.accepted, refused: handler.refused)
                state.withLock { $0.counts = counts }
            }
        }
    }
}
