import Foundation

/// A thread that runs one body and can be joined: the bench's senders and receivers,
/// each with its own ZeroMQ sockets made on it.
final class BenchThread: Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread named `name`.
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let done = self.done
        let thread = Thread {
            body()
            done.signal()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits until the body has returned.
    func join() {
        done.wait()
        done.signal()
    }
}
