import Glibc

/// A file to be replaced atomically later, whose descriptors are taken now: the folder and
/// the temporary file (`PATH.tmp`) are opened at once, so that writing it later needs no
/// new descriptor and succeeds even when the process has none left (`EMFILE`). `write`
/// then writes, syncs, renames over `PATH` and syncs the folder, as `AtomicFile` does.
///
/// Not `Sendable`: it owns two descriptors, used by the thread that made it.
public final class ReservedFile {
    /// The file's path.
    public let path: String
    private let name: String
    private let temporaryName: String
    private var folder: Int32
    private var temporary: Int32

    /// Opens the folder of `path` and `PATH.tmp` (created empty, mode 0600).
    public init(path: String) throws(PosixError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folderPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporaryName = name + ".tmp"
        folder = try Posix.open(folderPath, O_RDONLY | O_DIRECTORY)
        do {
            let (folder, temporaryName) = (folder, temporaryName)
            temporary = try Posix.call("openat") {
                openat(folder, temporaryName, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            }
        } catch {
            try? Posix.close(folder)
            throw error
        }
    }

    deinit { release() }

    /// Writes `bytes` as the file's new content atomically, with the descriptors opened at
    /// the start; they are closed after, whatever happens (a reserved file is written once).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(PosixError) {
        defer { release() }
        guard temporary >= 0, folder >= 0 else { throw PosixError(call: "write", errno: EBADF) }
        let (folder, temporaryName, name) = (folder, temporaryName, name)
        do throws(PosixError) {
            try Posix.writeAll(temporary, bytes)
            try Posix.fsync(temporary)
            try Posix.call("renameat") { renameat(folder, temporaryName, folder, name) }
        } catch {
            _ = unlinkat(folder, temporaryName, 0)
            throw error
        }
        try Posix.fsync(folder)
    }

    /// Writes `bytes` as the file's new content atomically.
    public func write(_ bytes: [UInt8]) throws(PosixError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(PosixError) in try write(buffer) } }.get()
    }

    /// Closes both descriptors without writing, and removes the empty temporary file.
    public func discard() {
        if temporary >= 0, folder >= 0 { _ = unlinkat(folder, temporaryName, 0) }
        release()
    }

    private func release() {
        if temporary >= 0 {
            try? Posix.close(temporary)
            temporary = -1
        }
        if folder >= 0 {
            try? Posix.close(folder)
            folder = -1
        }
    }
}

@available(*, unavailable)
extension ReservedFile: Sendable {}
