import ConnectionLimits
import Logging
import Posix
import ZeroMQ

/// The forwarder's two connection guards (docs/RELIABILITY.md, "Descriptors"): the frontend, which
/// producers connect to, holds at most half of what `RLIMIT_NOFILE` leaves past a reserve, as the
/// daemon's ingest socket does; the backend, which daemons connect to, a sixteenth. Past either, a
/// new connection is shut down and counted. Made, read and closed on the command's main thread.
final class ForwarderConnectionGuards {
    /// The frontend's guard.
    let frontend: ConnectionGuard
    /// The backend's guard.
    let backend: ConnectionGuard
    private let poller = ZMQPoller()

    /// Connects to the monitors `ForwardingThread` started on the two sockets bound at `bound`.
    init(context: ZMQContext, bound: (frontend: String, backend: String), logger: Logger) throws(ZMQError) {
        let descriptors = Posix.descriptorLimit()
        frontend = try ConnectionGuard(
            name: ForwardingThread.frontendGuardName,
            context: context,
            boundEndpoints: [bound.frontend],
            limit: ConnectionGuard.limit(configured: nil, descriptorLimit: descriptors),
            logger: logger
        )
        do {
            backend = try ConnectionGuard(
                name: ForwardingThread.backendGuardName,
                context: context,
                boundEndpoints: [bound.backend],
                limit: ConnectionGuard.sideLimit(descriptorLimit: descriptors),
                logger: logger
            )
        } catch {
            frontend.close()
            throw error
        }
        do {
            _ = try poller.add(frontend.socket)
            _ = try poller.add(backend.socket)
        } catch {
            close()
            throw error
        }
    }

    /// Waits up to `waitingMs` for a connection event, then reads every one waiting on both.
    func serve(waitingMs: Int) {
        _ = try? poller.poll(timeout: waitingMs)
        frontend.serve()
        backend.serve()
    }

    /// Closes both monitors' `PAIR` sockets (before the context ends).
    func close() {
        poller.removeAll()
        frontend.close()
        backend.close()
    }
}

@available(*, unavailable)
extension ForwarderConnectionGuards: Sendable {}
