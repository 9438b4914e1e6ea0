import Foundation
import Glibc
import Posix

/// Checks at start that the state directory can be written (violations.md: "a state
/// directory that cannot be written at start is an error at start"): creates it, then
/// writes, syncs and removes a small file in it, and checks that an existing history
/// file can be opened for writing. A read-only mount, a full disk or a missing
/// permission is one line naming the path. Every system call goes through `Posix`.
enum StateDirectoryProbe {
    /// The probe file's name.
    static let probeName = ".modalwatch-write-probe"

    /// Throws a one-line error naming `directory` (or its history file) when it cannot be written.
    static func check(_ directory: String, historyFile: String) throws(DaemonError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            let reason =
                (error as NSError).localizedDescription.split(whereSeparator: \.isNewline).first.map(String.init)
                ?? "\(error)"
            throw DaemonError(
                .systemCall,
                "cannot create the state directory \(directory): \(reason); choose another with --state-dir",
                underlying: error
            )
        }
        let probe = directory + "/" + probeName
        do throws(PosixError) {
            let fd = try Posix.open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600)
            defer {
                try? Posix.close(fd)
                try? Posix.unlink(probe)
            }
            let byte = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
            defer { byte.deallocate() }
            byte[0] = 0x0A
            try Posix.writeAll(fd, UnsafeRawBufferPointer(byte))
            try Posix.fsync(fd)
        } catch {
            throw DaemonError(
                .systemCall,
                "the state directory \(directory) cannot be written: \(error.reason); make it writable or choose another with --state-dir",
                underlying: error
            )
        }
        guard access(historyFile, F_OK) == 0 else { return }
        do {
            try Posix.close(try Posix.open(historyFile, O_RDWR | O_CLOEXEC))
        } catch {
            throw DaemonError(
                .systemCall,
                "the history \(historyFile) cannot be opened for writing: \(error.reason); fix its permissions or choose another --state-dir",
                underlying: error
            )
        }
    }
}
