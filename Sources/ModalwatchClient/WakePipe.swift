#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking pipe that wakes the sender thread from its poll: callers write a byte
/// when the queue stops being empty, the sender reads them all. Plain POSIX, so the
/// client runs wherever libzmq does.
final class WakePipe: Sendable {
    /// The end the sender polls.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() throws(ClientError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ClientError("cannot create the client's wake-up pipe (errno \(errno))") }
        for fd in fds {
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        }
        readDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Wakes the sender; never blocks (a full pipe already wakes it).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe.
    func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &buffer, { read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
