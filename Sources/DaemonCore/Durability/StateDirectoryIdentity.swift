import Glibc

/// Which state directory and history file the daemon opened, by device and inode, so that
/// their removal or replacement under a running daemon is seen (`rm -rf`, a new directory
/// moved in its place): compared by path, once a second, on the publishing thread.
struct StateDirectoryIdentity: Equatable {
    private let directory: FileID
    private let history: FileID

    private struct FileID: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// The identity of `historyPath` and its directory now; nil when either is missing.
    init?(historyPath: String, directory: String) {
        guard let directory = Self.fileID(directory), let history = Self.fileID(historyPath) else { return nil }
        self.directory = directory
        self.history = history
    }

    private static func fileID(_ path: String) -> FileID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
