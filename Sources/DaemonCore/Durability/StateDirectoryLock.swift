import Foundation
import Glibc
import Posix

/// The state directory belongs to one daemon (interfaces.md): an exclusive `flock` on
/// `modalwatchd.lock` inside it, taken at start before anything in the directory is read or
/// written and held for the process's life (the kernel releases it when the process ends,
/// however it ends). The file holds the holder's PID, so that a second daemon is refused in
/// one line naming the directory and that PID.
final class StateDirectoryLock {
    /// The lock file's name in the state directory.
    static let fileName = "modalwatchd.lock"

    private var descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { release() }

    /// Takes the lock of `directory` (which exists), or throws a one-line error naming the
    /// directory and the process that holds it.
    static func acquire(_ directory: String) throws(DaemonError) -> StateDirectoryLock {
        let path = directory + "/" + fileName
        let descriptor: Int32
        do {
            descriptor = try Posix.open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        } catch {
            throw DaemonError(
                .systemCall,
                "cannot open the state directory's lock \(path): \(error.reason); make \(directory) writable or choose another --state-dir",
                underlying: error
            )
        }
        do {
            try Posix.call("flock") { flock(descriptor, LOCK_EX | LOCK_NB) }
        } catch {
            let holder = holderPID(descriptor).map { "modalwatchd pid \($0)" } ?? "another process"
            try? Posix.close(descriptor)
            if error.errno == EWOULDBLOCK {
                throw DaemonError(
                    .configuration,
                    "the state directory \(directory) is in use by \(holder) (it holds \(path)); stop it or choose another --state-dir",
                    underlying: error
                )
            }
            throw DaemonError(
                .systemCall,
                "cannot lock the state directory \(directory): \(error.reason)",
                underlying: error
            )
        }
        var text = Array("\(getpid())\n".utf8)
        try? Posix.truncate(descriptor, to: 0)
        _ = try? text.withUnsafeMutableBytes { try Posix.writeAll(descriptor, UnsafeRawBufferPointer($0), at: 0) }
        return StateDirectoryLock(descriptor: descriptor)
    }

    /// Releases the lock (closing the file releases it); later calls do nothing.
    func release() {
        guard descriptor >= 0 else { return }
        try? Posix.close(descriptor)
        descriptor = -1
    }

    /// The PID written in the lock file by the daemon that holds it, when it reads as one.
    private static func holderPID(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { (try? Posix.read(descriptor, into: $0, at: 0)) ?? 0 }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text).flatMap { $0 > 0 ? $0 : nil }
    }
}

@available(*, unavailable)
extension StateDirectoryLock: Sendable {}
