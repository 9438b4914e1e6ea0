import Foundation
import Glibc

/// The bench's end of systemd's notify protocol: a Unix datagram socket at a path,
/// handed to the daemon as `$NOTIFY_SOCKET`, that waits for `READY=1`.
final class NotifySocket {
    /// Where it is bound.
    let path: String
    private var fileDescriptor: Int32

    /// Binds a datagram socket at `path`.
    init(path: String) throws(BenchError) {
        self.path = path
        unlink(path)
        fileDescriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fileDescriptor >= 0 else { throw .system("socket(AF_UNIX, SOCK_DGRAM)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fileDescriptor)
            throw BenchError("the notify socket path \(path) is too long; use a shorter TMPDIR")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fileDescriptor, $0, length) }
        }
        if result != 0 {
            let error = BenchError.system("bind(\(path))")
            Glibc.close(fileDescriptor)
            throw error
        }
    }

    deinit { close() }

    /// Closes and unlinks the socket: the daemon's later notifications then fail at once, harmlessly.
    func close() {
        if fileDescriptor >= 0 {
            Glibc.close(fileDescriptor)
            fileDescriptor = -1
            unlink(path)
        }
    }

    /// Waits up to `timeoutMs` for a datagram carrying `READY=1`; returns when it arrived
    /// (monotonic ns), or nil. `alive` is asked every few ms whether to go on waiting.
    func waitReady(timeoutMs: Int, alive: () -> Bool) -> UInt64? {
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeoutMs) * 1_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while MonotonicClock.nanoseconds() < deadline {
            var entry = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 5)
            if ready > 0 {
                let count = buffer.withUnsafeMutableBytes { recv(fileDescriptor, $0.baseAddress, $0.count, 0) }
                let now = MonotonicClock.nanoseconds()
                if count > 0 {
                    let text = String(decoding: buffer[0..<count], as: UTF8.self)
                    if text.split(separator: "\n").contains("READY=1") { return now }
                }
            } else if !alive() {
                return nil
            }
        }
        return nil
    }
}
