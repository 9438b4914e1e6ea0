import Foundation
import Synchronization

/// The start-up of a thread that owns its sockets (the publishing thread, the control thread): it
/// opens them on the new thread, reports the endpoint it bound, or the error, to its starter, then
/// runs until it ends. Written once for both.
enum SocketThread {
    /// Starts the thread named `name` (and `kernelName` in the kernel, `/proc/PID/task/TID/comm`, which
    /// tools read: at most 15 bytes) and waits until `open` has returned on it. Returns the endpoint
    /// bound and a semaphore signalled when the thread has ended. On an error the thread has already
    /// ended and closed what it opened; `what` names it in the error if it ends without a word.
    static func start<Worker>(
        name: String, kernelName: String? = nil, what: String,
        open: @escaping @Sendable () throws(DaemonError) -> Worker,
        boundEndpoint: @escaping @Sendable (Worker) -> String,
        run: @escaping @Sendable (Worker) -> Void
    ) throws(DaemonError) -> (boundEndpoint: String, finished: DispatchSemaphore) {
        let finished = DispatchSemaphore(value: 0)
        let started = StartReport(what: what)
        let thread = Thread {
            defer { finished.signal() }
            if let kernelName { _ = glibcSetThreadName(pthread_self(), kernelName) }
            let worker: Worker
            do throws(DaemonError) {
                worker = try open()
            } catch {
                started.post(.failure(error))
                return
            }
            started.post(.success(boundEndpoint(worker)))
            run(worker)
        }
        thread.name = name
        thread.start()
        return (try started.wait().get(), finished)
    }
}

/// How the start went, posted once by the new thread and taken once by its starter.
private final class StartReport: Sendable {
    private let what: String
    private let result = Mutex<Result<String, DaemonError>?>(nil)
    private let posted = DispatchSemaphore(value: 0)

    init(what: String) { self.what = what }

    func post(_ value: Result<String, DaemonError>) {
        result.withLock { $0 = value }
        posted.signal()
    }

    func wait() -> Result<String, DaemonError> {
        posted.wait()
        return result.withLock { $0 } ?? .failure(DaemonError(.systemCall, "the \(what) thread ended before it started"))
    }
}

/// glibc's `pthread_setname_np(3)` (a GNU extension the Glibc module does not declare).
@_silgen_name("pthread_setname_np")
private func glibcSetThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
