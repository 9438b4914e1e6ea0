import CZeroMQ
import Glibc
public import ModalwatchConfig
import Posix
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
    /// The configuration a reload request read (off the ingest thread), for the loop to put in force.
    private let readForReload = Mutex<Result<DaemonConfiguration, DaemonError>?>(nil)

    /// Creates the eventfd.
    public init() throws(DaemonError) {
        do {
            fileDescriptor = try Posix.call("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        } catch {
            throw DaemonError(.systemCall, "cannot create the wake-up eventfd: \(error)", underlying: error)
        }
    }

    deinit { try? Posix.close(fileDescriptor) }

    /// Asks the loop to put in force `read`, a configuration read on the caller's thread (so that
    /// reading and parsing the file never holds the ingest thread), and wakes it. A newer read
    /// replaces one the loop has not taken yet.
    public func requestReload(_ read: Result<DaemonConfiguration, DaemonError>) {
        readForReload.withLock { $0 = read }
        request(.reload)
    }

    /// The configuration `requestReload` handed over, once; nil when the request came without one.
    func takeReadForReload() -> Result<DaemonConfiguration, DaemonError>? {
        readForReload.withLock { read in
            defer { read = nil }
            return read
        }
    }

    /// Asks the loop for `request` and wakes it. Safe from any thread.
    public func request(_ request: Request) {
        pending.bitwiseOr(request.rawValue, ordering: .sequentiallyConsistent)
        var one: UInt64 = 1
        do {
            // nil: the counter is at its maximum, so the loop is woken already.
            _ = try withUnsafeBytes(of: &one) { (bytes) throws(PosixError) in try Posix.write(fileDescriptor, bytes) }
        } catch {
            // An eventfd write of 8 bytes fails only on a bad descriptor, which Posix stops on.
            preconditionFailure("cannot wake the ingest loop: \(error)")
        }
    }

    /// Takes what was asked since the last call (the loop's side).
    public func take() -> Request {
        var value: UInt64 = 0
        do {
            // nil: nothing was written since the last take (a spurious wake-up); the flags decide.
            _ = try withUnsafeMutableBytes(of: &value) { (bytes) throws(PosixError) in
                try Posix.read(fileDescriptor, into: bytes)
            }
        } catch {
            preconditionFailure("cannot read the wake-up eventfd: \(error)")
        }
        return Request(rawValue: pending.exchange(0, ordering: .sequentiallyConsistent))
    }
}
