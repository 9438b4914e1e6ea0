import Foundation
import Glibc

/// Checks at start that the state directory can be written (violations.md: "a state
/// directory that cannot be written at start is an error at start"): creates it, then
/// writes, syncs and removes a small file in it, and checks that an existing history
/// file can be opened for writing. A read-only mount, a full disk or a missing
/// permission is one line naming the path.
enum StateDirectoryProbe {
    /// The probe file's name.
    static let probeName = ".modalwatch-write-probe"

    /// Throws a one-line error naming `directory` (or its history file) when it cannot be written.
    static func check(_ directory: String, historyFile: String) throws(DaemonError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw DaemonError(.systemCall, "cannot create the state directory \(directory): \(reason(of: error)); choose another with --state-dir")
        }
        let probe = directory + "/" + probeName
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw unwritable(directory, errno) }
        var byte: UInt8 = 0x0A
        let written = write(fd, &byte, 1)
        let writeErrno = errno
        let synced = written == 1 ? fsync(fd) : -1
        let syncErrno = errno
        close(fd)
        unlink(probe)
        if written != 1 { throw unwritable(directory, writeErrno) }
        if synced != 0 { throw unwritable(directory, syncErrno) }
        if access(historyFile, F_OK) == 0 {
            let history = open(historyFile, O_RDWR | O_CLOEXEC)
            guard history >= 0 else {
                let code = errno
                throw DaemonError(.systemCall, "the history \(historyFile) cannot be opened for writing: \(String(cString: strerror(code))); fix its permissions or choose another --state-dir")
            }
            close(history)
        }
    }

    private static func unwritable(_ directory: String, _ code: Int32) -> DaemonError {
        DaemonError(.systemCall, "the state directory \(directory) cannot be written: \(String(cString: strerror(code))); make it writable or choose another with --state-dir")
    }

    private static func reason(of error: any Error) -> String {
        (error as NSError).localizedDescription.split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
    }
}
