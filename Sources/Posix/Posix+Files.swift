import Glibc

extension Posix {
    /// `pread` into `buffer` from `offset`; the bytes read (0 at the end of the file).
    public static func read(
        _ descriptor: Int32,
        into buffer: UnsafeMutableRawBufferPointer,
        at offset: Int
    ) throws(PosixError) -> Int {
        try call("pread") { Glibc.pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Writes all of `bytes` at `offset`, in as many `pwrite` calls as it takes. On a failure
    /// (e.g. `ENOSPC`) part of the bytes may be written: the caller truncates them away.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws(PosixError)
    {
        var written = 0
        while written < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[written...])
            written += try call("pwrite") {
                Glibc.pwrite(descriptor, rest.baseAddress, rest.count, off_t(offset + written))
            }
        }
    }

    /// `ftruncate` to `size` bytes.
    public static func truncate(_ descriptor: Int32, to size: Int) throws(PosixError) {
        try call("ftruncate") { Glibc.ftruncate(descriptor, off_t(size)) }
    }

    /// The size of the open file, from `fstat`.
    public static func fileSize(_ descriptor: Int32) throws(PosixError) -> Int {
        var info = stat()
        try call("fstat") { Glibc.fstat(descriptor, &info) }
        return Int(info.st_size)
    }

    /// `mmap` of the first `size` bytes of the file, readable and writable, `MAP_SHARED` (what is
    /// stored there reaches the file, and outlives the process). Never unmapped by this wrapper.
    public static func mapShared(_ descriptor: Int32, size: Int) throws(PosixError) -> UnsafeMutableRawPointer {
        // MAP_FAILED is (void *)-1: as an integer, the -1 that `call` looks for.
        let address = try call("mmap") {
            Int(bitPattern: Glibc.mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0))
        }
        return UnsafeMutableRawPointer(bitPattern: address)!
    }
}

extension Posix {
    /// `posix_fallocate`: makes sure the file's first `size` bytes have blocks (it returns its
    /// error instead of setting `errno`; `EINTR` is retried).
    public static func allocate(_ descriptor: Int32, size: Int) throws(PosixError) {
        while true {
            let code = Glibc.posix_fallocate(descriptor, 0, off_t(size))
            if code == 0 { return }
            if code == EINTR { continue }
            throw PosixError(call: "posix_fallocate", errno: code)
        }
    }
}
