import Foundation
import Glibc
import HistoryStore
import Logging
import Posix

/// Who may read the state directory (the history holds every violation): the directory
/// 0700 and its files 0600, owner only; with `history.group` the directory 02750 (files made
/// in it take its group) and the files 0640, so that the group's members read the history.
/// At start the process's umask is set to match (every file the daemon makes, SQLite's
/// included, gets the mode), and a directory or file found with wider modes, or another
/// group, is brought to these, in one notice line (docs/spec-decisions.md).
struct StateDirectoryModes {
    /// The directory's mode.
    let directoryMode: mode_t
    /// Each file's mode.
    let fileMode: mode_t
    /// The group that may read, or nil for the owner alone.
    let group: (name: String, id: gid_t)?

    /// The modes for `groupName` (nil: owner only); throws a one-line error for a group that does not exist.
    init(groupName: String?) throws(DaemonError) {
        guard let groupName else {
            directoryMode = 0o700
            fileMode = 0o600
            group = nil
            return
        }
        var entry = group_struct()
        var result: UnsafeMutablePointer<group_struct>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let code = getgrnam_r(groupName, &entry, &buffer, buffer.count, &result)
        guard code == 0, let found = result else {
            throw DaemonError(
                .configuration,
                "history.group: there is no group '\(groupName)'; name an existing group or remove the key"
            )
        }
        directoryMode = 0o2750
        fileMode = 0o640
        group = (groupName, found.pointee.gr_gid)
    }

    /// The names (and name prefixes) of the files the daemon keeps in the state directory; only
    /// these are brought to `fileMode` (a directory shared with other files keeps theirs).
    static let ownFilePrefixes = [
        ViolationHistory.fileName, HistoryReserve.fileName, HistoryKeeper.spillFileName, CheckpointFile.fileName,
        CheckpointFile.legacyFileName,
        RuleFaultGuard.markerFileName, RuleFaultGuard.quarantineFileName, StateDirectoryLock.fileName,
    ]

    /// Sets the umask, then brings `directory` (which exists) and the daemon's files in it to these
    /// modes. A directory others may write to (world-writable or sticky, such as `/tmp`) keeps its
    /// mode, with a warning: it is not the daemon's alone.
    func apply(to directory: String, logger: Logger) throws(DaemonError) {
        umask(group == nil ? 0o077 : 0o027)
        var changed: [String] = []
        var info = stat()
        if stat(directory, &info) == 0, info.st_mode & (S_ISVTX | S_IWOTH) != 0 {
            logger.warning(
                "the state directory is shared (others may write to it), so its mode is left as it is; the history's files in it are kept to the daemon's user all the same; give the daemon a directory of its own with --state-dir",
                metadata: [
                    "directory": "\(directory)", "mode": "\(String(info.st_mode & 0o7777, radix: 8))",
                ]
            )
        } else {
            do {
                if try bring(directory, mode: directoryMode, mask: 0o7777) { changed.append(directory) }
            } catch {
                throw DaemonError(
                    .systemCall,
                    "cannot set the mode of the state directory \(directory): \(error.reason); fix its owner or choose another --state-dir",
                    underlying: error
                )
            }
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names.sorted() where Self.ownFilePrefixes.contains(where: name.hasPrefix) {
            let path = directory + "/" + name
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if (try? bring(path, mode: fileMode, mask: 0o777)) == true { changed.append(name) }
        }
        guard !changed.isEmpty else { return }
        logger.notice(
            "the state directory had other modes than it keeps; brought to them",
            metadata: [
                "directory": "\(directory)", "directory_mode": "\(String(directoryMode, radix: 8))",
                "file_mode": "\(String(fileMode, radix: 8))", "group": "\(group?.name ?? "-")",
                "changed": "\(changed.joined(separator: ","))",
            ]
        )
    }

    /// Sets the group (when one is named) and the mode of `path` if they differ; returns whether they did.
    private func bring(_ path: String, mode: mode_t, mask: mode_t) throws(PosixError) -> Bool {
        var info = stat()
        try Posix.call("stat") { stat(path, &info) }
        var changed = false
        if let group, info.st_gid != group.id {
            try Posix.call("chown") { chown(path, uid_t.max, group.id) }
            changed = true
        }
        if info.st_mode & mask != mode {
            try Posix.chmod(path, mode)
            changed = true
        }
        return changed
    }
}

/// Glibc's `struct group`, named so that it does not clash with the `group` property.
private typealias group_struct = Glibc.group
