import ByteBasics
import Glibc
public import Posix

/// Speaks systemd's notify protocol over `$NOTIFY_SOCKET` directly (no libsystemd):
/// one datagram per state change. Without `$NOTIFY_SOCKET` it does nothing.
public final class SystemdNotifier: Sendable {
    private let fileDescriptor: Int32
    private let address: sockaddr_un
    private let addressLength: socklen_t
    /// How often the watchdog wants `WATCHDOG=1` (half of `$WATCHDOG_USEC`), or nil.
    public let watchdogIntervalMs: Int64?

    /// Reads `NOTIFY_SOCKET` and `WATCHDOG_USEC` from `environment`. Without a socket to
    /// talk to (none named, a path too long, or no datagram socket to be had) it stays inactive.
    public init(environment: [String: String]) {
        if let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0,
            environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true
        {
            watchdogIntervalMs = max(1, usec / 2000)
        } else {
            watchdogIntervalMs = nil
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty,
            path.utf8.count < MemoryLayout.size(ofValue: address.sun_path),
            let descriptor = try? Posix.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue))
        else {
            fileDescriptor = -1
            self.address = address
            addressLength = 0
            return
        }
        fileDescriptor = descriptor
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        self.address = address
    }

    deinit { if fileDescriptor >= 0 { try? Posix.close(fileDescriptor) } }

    /// Whether systemd is listening.
    public var isActive: Bool { fileDescriptor >= 0 }

    /// Sends one state message, e.g. `READY=1\nSTATUS=...`; does nothing when inactive.
    public func notify(_ state: String) throws(PosixError) {
        guard fileDescriptor >= 0 else { return }
        var message = state
        try message.withUTF8 { bytes in
            Result { () throws(PosixError) in
                try Posix.sendDatagram(
                    fileDescriptor,
                    UnsafeRawBufferPointer(bytes),
                    to: address,
                    length: addressLength
                )
            }
        }.get()
    }

    /// `RELOADING=1` with the monotonic time systemd wants beside it.
    public func reloading() throws(PosixError) {
        try notify("RELOADING=1\nMONOTONIC_USEC=\(PosixClock.monotonic.microseconds())")
    }
}
