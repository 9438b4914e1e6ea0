import Glibc
import Posix

/// A file of the state directory read back at the start (the rule-call marker, the quarantine),
/// opened for reading only and read a part at a time, so that what an earlier run (or anything
/// else) left there costs at most the bytes asked for: a regular file only (a FIFO or a device
/// is refused, never waited on), its size measured once.
final class ReadBackFile {
    /// The file's path.
    let path: String
    /// Its size in bytes when it was opened.
    let size: Int
    private let descriptor: Int32

    private init(path: String, size: Int, descriptor: Int32) {
        self.path = path
        self.size = size
        self.descriptor = descriptor
    }

    deinit {
        try? Posix.close(descriptor)
    }

    /// The file at `path`, or nil when there is none; refused (field `file`) when it cannot be
    /// opened or is not a regular file.
    static func open(_ path: String) throws(StateFileRefusal) -> ReadBackFile? {
        let descriptor: Int32
        do {
            descriptor = try Posix.open(path, O_RDONLY | O_NONBLOCK)
        } catch  where error.errno == ENOENT {
            return nil
        } catch {
            throw StateFileRefusal(path, field: "file", "it cannot be opened for reading", underlying: error)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = PosixError(call: "fstat", errno: errno)
            try? Posix.close(descriptor)
            throw StateFileRefusal(path, field: "file", "it cannot be examined", underlying: error)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            try? Posix.close(descriptor)
            throw StateFileRefusal(
                path,
                field: "file",
                "it is not a regular file (mode \(String(info.st_mode, radix: 8)))"
            )
        }
        return ReadBackFile(path: path, size: Int(info.st_size), descriptor: descriptor)
    }

    /// Up to `count` bytes at `offset` (fewer at the file's end, none past it); refused (field
    /// `file`) when the file cannot be read.
    func bytes(at offset: Int, count: Int) throws(StateFileRefusal) -> [UInt8] {
        let wanted = max(0, min(count, size - min(offset, size)))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var read = 0
        while read < wanted {
            let result = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(PosixError) in
                    try Posix.read(
                        descriptor,
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[read...]),
                        at: offset + read
                    )
                }
            }
            let n: Int
            switch result {
            case .success(let count): n = count
            case .failure(let error):
                throw StateFileRefusal(path, field: "file", "it cannot be read", underlying: error)
            }
            if n == 0 { break }
            read += n
        }
        return Array(bytes[..<read])
    }
}
