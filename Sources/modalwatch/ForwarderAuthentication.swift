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
    private let finished = Mutex<DispatchSemaphore?>(nil)
    private let state = Mutex<(counts: Counts, stop: Bool)>((Counts(), false))

    init(context: ZMQContext, allowedClients: [String], allowListPath: String) {
        self.context = context
        self.allowedClients = allowedClients
        self.allowListPath = allowListPath
    }

    /// The thread's handler and the poller that watches its socket.
    private struct Serving {
        let handler: ZapHandler
        let poller: ZMQPoller
        let index: Int
    }

    /// Starts the thread; returns once the handler is bound (before any encrypted socket exists).
    func start() throws(ForwardingThread.Failure) {
        let (_, finished) = try SocketThread.start(
            name: "modalwatch-zap",
            open: { [self] () throws(ForwardingThread.Failure) in try open() },
            report: { _ in () },
            run: { [self] in run($0) }
        )
        self.finished.withLock { $0 = finished }
    }

    /// The counts so far.
    var counts: Counts { state.withLock { $0.counts } }

    /// Asks the thread to close its socket and end; waits for it.
    func stop() {
        state.withLock { $0.stop = true }
        finished.withLock { $0 }?.wait()
    }

    /// Binds the handler and polls its socket; closes it when it throws.
    private func open() throws(ForwardingThread.Failure) -> Serving {
        let logger = Logger(label: "modalwatch-forward", factory: { StreamLogHandler.standardError(label: $0) })
        let handler: ZapHandler
        do throws(ZapHandler.Failure) {
            handler = try ZapHandler(
                context: context,
                allowedClients: allowedClients,
                what: allowListPath,
                logger: logger
            )
        } catch {
            throw ForwardingThread.Failure(description: error.description, isEndpoint: false)
        }
        let poller = ZMQPoller()
        guard let index = try? poller.add(handler.socket) else {
            handler.close()
            throw ForwardingThread.Failure(
                description: "cannot poll the CURVE authentication handler",
                isEndpoint: false
            )
        }
        return Serving(handler: handler, poller: poller, index: index)
    }

    /// Answers requests until `stop()`; closes the handler.
    private func run(_ serving: Serving) {
        let handler = serving.handler
        let poller = serving.poller
        defer { handler.close() }
        while !state.withLock({ $0.stop }) {
            do { _ = try poller.poll(timeout: 100) } catch  where error.isInterrupted { continue } catch { break }
            if poller.isReadable(serving.index) {
                handler.serve()
                let counts = Counts(accepted: handler.accepted, refused: handler.refused)
                state.withLock { $0.counts = counts }
            }
        }
    }
}
