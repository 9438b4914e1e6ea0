import Dispatch
import Foundation
import Glibc
import Synchronization

/// Every child process and temporary folder the bench made, so that each is cleaned
/// up on every way out: normal end, a thrown error, or SIGINT/SIGTERM/SIGHUP (turned
/// into dispatch sources, which kill the children, remove the folders and exit).
/// Unchecked: `sources` is written once, in `init`, and only kept alive after.
final class ChildRegistry: @unchecked Sendable {
    private let children = Mutex<Set<pid_t>>([])
    private let folders = Mutex<[String]>([])
    private var sources: [any DispatchSourceSignal] = []

    /// A registry that cleans up on SIGINT, SIGTERM and SIGHUP.
    init() {
        var made: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [self] in
                FileHandle.standardError.write(
                    Data("\nmodalwatch-bench: signal \(signalNumber); stopping the daemons and cleaning up\n".utf8)
                )
                cleanUp()
                exit(128 + signalNumber)
            }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    /// Remembers a child to kill if the bench ends early.
    func add(_ pid: pid_t) {
        _ = children.withLock { $0.insert(pid) }
    }

    /// Forgets a child that was reaped.
    func remove(_ pid: pid_t) {
        _ = children.withLock { $0.remove(pid) }
    }

    /// Remembers a folder to remove at the end.
    func add(folder: String) {
        folders.withLock { $0.append(folder) }
    }

    /// Kills and reaps every remembered child, and removes every remembered folder.
    func cleanUp() {
        let pids = children.withLock { current in
            defer { current.removeAll() }
            return current
        }
        for pid in pids {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        let paths = folders.withLock { current in
            defer { current.removeAll() }
            return current
        }
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}
