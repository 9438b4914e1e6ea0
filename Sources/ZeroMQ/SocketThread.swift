import ByteBasics
public import Dispatch
import Foundation
import Synchronization

/// The start-up of a thread that owns its sockets for their whole life (a socket belongs to one
/// thread): `open` makes them on the new thread and reports what its starter needs (the endpoints
/// bound), or throws why it cannot; then `run` uses them until it ends. The starter waits for that
/// report, and on an error until the thread has ended.
public enum SocketThread: Sendable {
    /// Starts the thread named `name` (and `kernelName` in the kernel, `/proc/PID/task/TID/comm`,
    /// which tools read: at most 15 bytes; Linux only) and waits until `open` has returned on it.
    ///
    /// - Parameters:
    ///   - open: makes the thread's sockets (closing what it made when it throws).
    ///   - report: what the starter gets of them (called on the new thread, after `open`).
    ///   - run: uses them until it ends, closing them.
    /// - Returns: `report`'s answer, and a semaphore signalled once when the thread has ended.
    /// - Throws: `open`'s error, once the thread has ended.
    public static func start<Worker, Report: Sendable, Failure: Error>(
        name: String,
        kernelName: String? = nil,
        open: @escaping @Sendable () throws(Failure) -> Worker,
        report: @escaping @Sendable (Worker) -> Report,
        run: @escaping @Sendable (Worker) -> Void
    ) throws(Failure) -> (report: Report, finished: DispatchSemaphore) {
        let finished = DispatchSemaphore(value: 0)
        let started = StartReport<Report, Failure>()
        let thread = Thread {
            defer { finished.signal() }
            if let kernelName { KernelThreadName.set(kernelName) }
            let worker: Worker
            do throws(Failure) {
                worker = try open()
            } catch {
                started.post(.failure(error))
                return
            }
            started.post(.success(report(worker)))
            run(worker)
        }
        thread.name = name
        thread.start()
        switch started.wait() {
        case .success(let value):
            return (value, finished)
        case .failure(let error):
            finished.wait()
            throw error
        }
    }
}

/// How the start went, posted once by the new thread and taken once by its starter.
private final class StartReport<Report: Sendable, Failure: Error>: Sendable {
    private let result = Mutex<Result<Report, Failure>?>(nil)
    private let posted = DispatchSemaphore(value: 0)

    func post(_ value: sending Result<Report, Failure>) {
        result.withLock { $0 = value }
        posted.signal()
    }

    func wait() -> Result<Report, Failure> {
        posted.wait()
        // Posted before the semaphore was signalled.
        return result.withLock { $0 }!
    }
}
