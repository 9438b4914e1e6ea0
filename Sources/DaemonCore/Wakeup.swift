import CZeroMQ
import Glibc
import Synchronization

/// Wakes the ingest loop from another thread or a signal handler: an eventfd
/// the loop polls beside its sockets, and the requests waiting for it.
public final class Wakeup: Sendable {
    /// What the loop is asked to do.
    public struct Request: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Stop gracefully: finish what was received, publish it, close.
        public static let stop = Request(rawValue: 1)
        /// Reload the configuration.
        public static let reload = Request(rawValue: 2)
    }

    /// The eventfd to poll for readability.
    public let fileDescriptor: Int32
    private let pending = Atomic<UInt32>(0)

    /// Creates the eventfd.
    public init() throws(DaemonError) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw DaemonError(.systemCall, "eventfd failed: \(String(cString: strerror(errno)))") }
        fileDescriptor = fd
    }

    deinit { close(fileDescriptor) }

    /// Asks the loop for `request` and wakes it. Safe from any thread.
    public func request(_ request: Request) {
        pending.bitwiseOr(request.rawValue, ordering: .sequentiallyConsistent)
        var one: UInt64 = 1
        _ = write(fileDescriptor, &one, 8)
    }

    /// Takes what was asked since the last call (the loop's side).
    public func take() -> Request {
        var value: UInt64 = 0
        _ = read(fileDescriptor, &value, 8)
        return Request(rawValue: pending.exchange(0, ordering: .sequentiallyConsistent))
    }
}
