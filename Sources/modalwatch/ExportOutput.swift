import Glibc
import Posix

/// Where `history export` writes, through a 64 KiB buffer: standard output, or a file made whole
/// (`PATH.partial`, synced, renamed over `PATH` by `finish`: an export stopped half-way leaves
/// the partial file, never a `PATH` that looks complete). A failed write throws, keeping `errno`.
final class ExportOutput {
    /// The file written to, or nil for standard output.
    let path: String?
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Whether what is written goes to a terminal (standard output, not redirected).
    let isTerminal: Bool

    /// Standard output when `path` is nil or `-`, else a new `PATH.partial` (mode 0644 less the umask).
    init(path: String?) throws(PosixError) {
        buffer.reserveCapacity(1 << 16)
        if let path, path != "-" {
            self.path = path
            descriptor = try Posix.open(path + ".partial", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
            isTerminal = false
        } else {
            self.path = nil
            descriptor = STDOUT_FILENO
            isTerminal = isatty(STDOUT_FILENO) == 1
        }
    }

    deinit {
        if path != nil { try? Posix.close(descriptor) }
    }

    /// Appends `bytes`, writing the buffer out once it holds 64 KiB.
    func write(_ bytes: some Sequence<UInt8>) throws(PosixError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends one JSON value and a newline: its bytes as they are, or (on a terminal) with what
    /// a terminal would act on escaped (`JSONOutput.escaped`, the same value).
    func writeJSONLine(_ json: String) throws(PosixError) {
        var json = json
        json.withUTF8 { bytes in
            if isTerminal {
                JSONOutput.appendEscaped(UnsafeRawBufferPointer(bytes), to: &buffer)
            } else {
                buffer.append(contentsOf: bytes)
            }
        }
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes the buffer out.
    func flush() throws(PosixError) {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { bytes in Result { () throws(PosixError) in try Posix.writeAll(descriptor, bytes) }
        }.get()
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left; a file is synced and renamed over `path`.
    func finish() throws(PosixError) {
        try flush()
        guard let path else { return }
        try Posix.fsync(descriptor)
        try Posix.rename(path + ".partial", path)
        try AtomicFile.syncFolder(of: path)
    }
}
