import Glibc

/// What libzmq needs from the process's sandbox for the endpoints it will be given, asked before
/// libzmq is.
///
/// libzmq resolves every `tcp://` endpoint through `getifaddrs()`, which asks the kernel over an
/// `AF_NETLINK` socket; where a sandbox refuses that family (systemd's `RestrictAddressFamilies=`
/// without `AF_NETLINK`, a seccomp filter), libzmq aborts the process with only its own assertion
/// in the log. `refusal(endpoints:)` names the cause first, so the caller can say it and stop.
public enum ZMQTransportCheck: Sendable {
    /// One line that says what the sandbox refuses, what needs it and what to change, or nil when
    /// none of `endpoints` is `tcp://` or the process may open a netlink route socket.
    public static func refusal(endpoints: [String]) -> String? {
        let tcp = endpoints.filter { $0.hasPrefix("tcp://") }
        guard let first = tcp.first else { return nil }
        let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let error = errno
        if fd >= 0 {
            close(fd)
            return nil
        }
        let reason = String(cString: strerror(error))
        return "the sandbox refuses AF_NETLINK sockets (socket: \(reason), errno \(error)), which libzmq needs for "
            + "tcp:// endpoints (\(first)\(tcp.count > 1 ? " and \(tcp.count - 1) more" : "")): add AF_NETLINK to the unit's "
            + "RestrictAddressFamilies=, or use ipc:// endpoints only"
    }
}
