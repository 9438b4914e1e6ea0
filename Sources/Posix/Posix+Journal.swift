import Glibc

extension Posix {
    /// Whether stderr is the journal's stream: `JOURNAL_STREAM` (`device:inode`, decimal, as
    /// systemd sets it) names the file stderr is open on (systemd.exec(5), "JOURNAL_STREAM").
    public static func stderrIsJournal(environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }
}
