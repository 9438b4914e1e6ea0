import CRuleGuard
import Glibc
import Posix

/// A rule module file as the host loaded it: its identity on disk (device, inode, size,
/// modification time), and the sealed in-memory copy the host `dlopen`s instead of the file.
///
/// The copy is what keeps a module file overwritten in place (`cp new.so loaded.so`) from
/// changing the code the host runs: a shared library is mapped from its file, so new bytes
/// written into the same inode would show through the mapping. The copy's descriptor stays
/// open for the life of the process, as the module stays loaded.
public struct ModuleFile: Sendable, Equatable {
    /// What identifies the file's contents on disk without reading them.
    public struct Identity: Sendable, Equatable {
        /// `st_dev`.
        public var device: UInt64
        /// `st_ino`.
        public var inode: UInt64
        /// `st_size`.
        public var size: Int64
        /// `st_mtim` in nanoseconds since the epoch.
        public var modified: Int64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        }

        /// The identity of the file at `path` now; nil when it is gone or cannot be read.
        public static func of(path: String) -> Identity? {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            return Identity(status)
        }
    }

    /// The file it was loaded from.
    public let path: String
    /// The file's identity when the copy was made.
    public let identity: Identity
    /// The descriptor of the sealed copy, or -1 when no copy could be made.
    let descriptor: Int32
    /// Why no copy could be made (the file itself is loaded then), or nil.
    public let copyProblem: String?

    /// The name the host `dlopen`ed the module by: its copy (`dlopen(loadPath, RTLD_NOLOAD)`
    /// finds the module as loaded; `dlopen` of `path` would load the file again, as another
    /// instance), or the file when no copy could be made.
    public var loadPath: String { descriptor >= 0 ? "/proc/self/fd/\(descriptor)" : path }

    /// Copies the file at `path` into a sealed in-memory file. A file that changes while it is
    /// copied is copied again. Where no in-memory file can be made, the result names the file
    /// itself and says why (`copyProblem`).
    static func copy(of path: String) throws(ModuleLoadError) -> ModuleFile {
        for _ in 0..<3 {
            if let made = try copyOnce(path) { return made }
        }
        throw ModuleLoadError(path: path, reason: .copyFailed("the file kept changing while it was copied"))
    }

    private static func copyOnce(_ path: String) throws(ModuleLoadError) -> ModuleFile? {
        let source: Int32
        do {
            source = try Posix.open(path, O_RDONLY | O_CLOEXEC)
        } catch {
            // dlopen names a missing or unreadable file itself, with the usual wording.
            throw ModuleLoadError(path: path, reason: .notASharedLibrary("\(path): \(error.reason)"))
        }
        defer { try? Posix.close(source) }
        var before = stat()
        guard fstat(source, &before) == 0 else { throw failure(path, "fstat", errno) }
        let name = "modalwatch-module:" + (path.split(separator: "/").last.map(String.init) ?? path)
        let copy = mw_private_file(name)
        guard copy >= 0 else {
            // No in-memory file here (a system call filter, no memory): the file itself is loaded.
            let problem = "memfd_create: \(String(cString: strerror(errno)))"
            return ModuleFile(path: path, identity: Identity(before), descriptor: -1, copyProblem: problem)
        }
        var keep = false
        defer { if !keep { try? Posix.close(copy) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        do {
            while true {
                let count = try Posix.read(source, into: buffer, at: offset)
                if count == 0 { break }
                try Posix.writeAll(copy, UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: offset)
                offset += count
            }
        } catch {
            throw ModuleLoadError(path: path, reason: .copyFailed("\(error.call): \(error.reason)"))
        }
        var after = stat()
        guard fstat(source, &after) == 0 else { throw failure(path, "fstat", errno) }
        guard Identity(before) == Identity(after), offset == Int(after.st_size) else { return nil }
        guard mw_private_file_seal(copy) == 0 else { throw failure(path, "F_ADD_SEALS", errno) }
        keep = true
        return ModuleFile(path: path, identity: Identity(after), descriptor: copy, copyProblem: nil)
    }

    private static func failure(_ path: String, _ call: String, _ code: Int32) -> ModuleLoadError {
        ModuleLoadError(path: path, reason: .copyFailed("\(call): \(String(cString: strerror(code)))"))
    }
}
