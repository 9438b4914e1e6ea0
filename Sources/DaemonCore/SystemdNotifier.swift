import Glibc

/// Speaks systemd's notify protocol over `$NOTIFY_SOCKET` directly (no libsystemd):
/// one datagram per state change. Without `$NOTIFY_SOCKET` it does nothing.
public final class SystemdNotifier: @unchecked Sendable {
    private let fileDescriptor: Int32
    private var address = sockaddr_un()
    private var addressLength: socklen_t = 0
    /// How often the watchdog wants `WATCHDOG=1` (half of `$WATCHDOG_USEC`), or nil.
    public let watchdogIntervalMs: Int64?

    /// Reads `NOTIFY_SOCKET` and `WATCHDOG_USEC` from `environment`.
    public init(environment: [String: String]) {
        if let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0,
           environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true {
            watchdogIntervalMs = max(1, usec / 2000)
        } else {
            watchdogIntervalMs = nil
        }
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty,
              path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            fileDescriptor = -1
            return
        }
        fileDescriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    }

    deinit { if fileDescriptor >= 0 { close(fileDescriptor) } }

    /// Whether systemd is listening.
    public var isActive: Bool { fileDescriptor >= 0 }

    /// Sends one state message, e.g. `READY=1\nSTATUS=...`.
    public func notify(_ state: String) {
        guard fileDescriptor >= 0 else { return }
        var message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeMutableBytes { buffer in
                    sendto(fileDescriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), socketAddress, addressLength)
                }
            }
        }
    }

    /// `RELOADING=1` with the monotonic time systemd wants beside it.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        notify("RELOADING=1\nMONOTONIC_USEC=\(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)")
    }
}
