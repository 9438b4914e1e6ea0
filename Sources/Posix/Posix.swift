public import Glibc

/// The system calls the daemon makes itself, each through one wrapper (`call`) in the
/// manner of swift-nio's `NIOPosix/System.swift`: `EINTR` is retried, any other failure
/// throws a `PosixError` that keeps `errno`, and an `errno` that only a bug can cause
/// (`EBADF`, `EFAULT`) stops the process with a message instead of going unnoticed.
/// Non-blocking calls report `EAGAIN` as nil, not as an error.
public enum Posix: Sendable {
    /// Runs `body`, one system call that returns -1 and sets `errno` on failure, until it
    /// is not interrupted; returns its result or throws with `errno` kept.
    @inline(__always)
    @discardableResult
    public static func call<Result: FixedWidthInteger>(
        _ name: StaticString,
        _ body: () -> Result
    ) throws(PosixError) -> Result {
        while true {
            let result = body()
            guard result == -1 else { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            preconditionIsNotBug(code, name)
            throw PosixError(call: "\(name)", errno: code)
        }
    }

    /// As `call`, for a call on a non-blocking descriptor: nil when it would block (`EAGAIN`).
    @inline(__always)
    public static func callNonBlocking<Result: FixedWidthInteger>(
        _ name: StaticString,
        _ body: () -> Result
    ) throws(PosixError) -> Result? {
        do {
            return try call(name, body)
        } catch  where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return nil
        }
    }

    /// `close`. Not retried on `EINTR`: Linux has closed the descriptor by then.
    public static func close(_ descriptor: Int32) throws(PosixError) {
        guard Glibc.close(descriptor) == -1 else { return }
        let code = Glibc.errno
        if code == EINTR { return }
        preconditionIsNotBug(code, "close")
        throw PosixError(call: "close", errno: code)
    }

    /// `read` into `buffer`; the bytes read (0 at the end), or nil on a non-blocking descriptor with nothing to read.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(PosixError) -> Int?
    {
        try callNonBlocking("read") { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// `write` of `bytes`; the bytes written, or nil on a non-blocking descriptor that is full.
    public static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(PosixError) -> Int? {
        try callNonBlocking("write") { Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes`, in as many `write` calls as it takes (blocking descriptors).
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(PosixError) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            offset += try call("write") { Glibc.write(descriptor, rest.baseAddress, rest.count) }
        }
    }

    /// `write` of all of `bytes` to a standard stream (`EINTR` retried), for output that may
    /// have nowhere to go: it stops at the first error (a closed pipe, a closed descriptor)
    /// and returns false, never traps. For files the daemon owns, `writeAll` keeps the error.
    @discardableResult
    public static func writeAllOrStop(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result > 0 {
                written += result
            } else if result < 0 && Glibc.errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// `open` with `flags` (and `O_CLOEXEC`), creating with `mode` when `O_CREAT` is among them.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(PosixError) -> Int32 {
        try call("open") { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    /// `fsync`.
    public static func fsync(_ descriptor: Int32) throws(PosixError) {
        try call("fsync") { Glibc.fsync(descriptor) }
    }

    /// `rename`: atomically replaces `to` with `from` (same file system).
    public static func rename(_ from: String, _ to: String) throws(PosixError) {
        try call("rename") { Glibc.rename(from, to) }
    }

    /// `unlink`.
    public static func unlink(_ path: String) throws(PosixError) {
        try call("unlink") { Glibc.unlink(path) }
    }

    /// `chmod`.
    public static func chmod(_ path: String, _ mode: mode_t) throws(PosixError) {
        try call("chmod") { Glibc.chmod(path, mode) }
    }

    /// `socket` (with `SOCK_CLOEXEC`).
    public static func socket(_ domain: Int32, _ type: Int32) throws(PosixError) -> Int32 {
        try call("socket") { Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// `setsockopt` of one value.
    public static func setOption<Value: BitwiseCopyable>(
        _ descriptor: Int32,
        _ level: Int32,
        _ name: Int32,
        _ value: Value
    ) throws(PosixError) {
        var value = value
        try call("setsockopt") {
            Glibc.setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Value>.size))
        }
    }

    /// `bind` to an IPv4 address.
    public static func bind(_ descriptor: Int32, _ address: sockaddr_in) throws(PosixError) {
        var address = address
        try call("bind") {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// `listen`.
    public static func listen(_ descriptor: Int32, backlog: Int32) throws(PosixError) {
        try call("listen") { Glibc.listen(descriptor, backlog) }
    }

    /// `getsockname` of an IPv4 socket.
    public static func localAddress(_ descriptor: Int32) throws(PosixError) -> sockaddr_in {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try call("getsockname") {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
        }
        return address
    }

    /// `accept`: the client's descriptor.
    public static func accept(_ descriptor: Int32) throws(PosixError) -> Int32 {
        try call("accept") { Glibc.accept(descriptor, nil, nil) }
    }

    /// `recv` into `buffer`; the bytes received (0 when the peer closed).
    public static func receive(
        _ descriptor: Int32,
        into buffer: UnsafeMutableRawBufferPointer
    ) throws(PosixError) -> Int {
        try call("recv") { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
    }

    /// Sends all of `bytes` on a connected stream socket, without `SIGPIPE`.
    public static func sendAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(PosixError) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            offset += try call("send") { send(descriptor, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// `sendto` of one datagram to a Unix socket address of `length` bytes, without `SIGPIPE`.
    public static func sendDatagram(
        _ descriptor: Int32,
        _ bytes: UnsafeRawBufferPointer,
        to address: sockaddr_un,
        length: socklen_t
    ) throws(PosixError) {
        var address = address
        try call("sendto") {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }

    /// `shutdown` of both directions.
    public static func shutdown(_ descriptor: Int32) throws(PosixError) {
        try call("shutdown") { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Stops on an `errno` only a bug causes: a descriptor not open, a bad pointer.
    @inline(never)
    static func preconditionIsNotBug(_ code: Int32, _ name: StaticString) {
        precondition(
            code != EBADF && code != EFAULT,
            "\(name) failed with errno \(code) (\(String(cString: strerror(code)))): a bug"
        )
    }
}
