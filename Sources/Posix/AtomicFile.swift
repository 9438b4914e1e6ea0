import Glibc

/// Replaces a file atomically: the new bytes go to `PATH.tmp`, are synced, and
/// renamed over `PATH`; then the folder is synced, so that after a crash the file
/// is either the old one or the new one, whole. Every step's result is checked.
public enum AtomicFile: Sendable {
    /// Writes `bytes` to `path` atomically (see the type).
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws(PosixError) {
        let temporary = path + ".tmp"
        let descriptor = try Posix.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
        do throws(PosixError) {
            try Posix.writeAll(descriptor, bytes)
            try Posix.fsync(descriptor)
        } catch {
            try? Posix.close(descriptor)
            try? Posix.unlink(temporary)
            throw error
        }
        try Posix.close(descriptor)
        do throws(PosixError) {
            try Posix.rename(temporary, path)
        } catch {
            try? Posix.unlink(temporary)
            throw error
        }
        try syncFolder(of: path)
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws(PosixError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(PosixError) in try write(buffer, to: path) } }.get()
    }

    /// Syncs the folder that holds `path`, so that a rename in it is durable.
    public static func syncFolder(of path: String) throws(PosixError) {
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let descriptor = try Posix.open(folder, O_RDONLY | O_DIRECTORY)
        defer { try? Posix.close(descriptor) }
        try Posix.fsync(descriptor)
    }
}
