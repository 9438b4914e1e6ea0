import Glibc

/// The process's descriptor limit, and the descriptors of connections another library
/// (libzmq) owns, which the daemon may only look at and shut down, never close.
extension Posix {
    /// Raises the soft `RLIMIT_NOFILE` to the hard one; returns the soft limit now in force.
    @discardableResult
    public static func raiseDescriptorLimit() throws(PosixError) -> Int {
        var limit = rlimit()
        try call("getrlimit") { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            try call("setrlimit") { setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The soft `RLIMIT_NOFILE` in force.
    public static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The local TCP port of `descriptor` when it is an IPv4 or IPv6 socket, else nil. For a
    /// descriptor another library owns: it may be closed by then, so no error (`EBADF`
    /// included) is a bug here; each is nil.
    public static func localTCPPort(ofForeign descriptor: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        default:
            return nil
        }
    }

    /// The kernel's cookie of the socket `descriptor` refers to (`SO_COOKIE`, Linux 4.12): a
    /// number no other socket gets while the system runs, so two reads that agree saw the same
    /// socket even when the descriptor was closed and reused in between. Nil when `descriptor`
    /// is not a socket (or is closed): for a descriptor another library owns.
    public static func socketCookie(ofForeign descriptor: Int32) -> UInt64? {
        var cookie: UInt64 = 0
        var length = socklen_t(MemoryLayout<UInt64>.size)
        // SO_COOKIE, from <asm-generic/socket.h>, which Glibc does not export.
        guard getsockopt(descriptor, SOL_SOCKET, 57, &cookie, &length) == 0, length == MemoryLayout<UInt64>.size else {
            return nil
        }
        return cookie
    }

    /// The peer of the connected socket `descriptor` as libzmq writes it in a message's
    /// `Peer-Address` property: the numeric host (`getnameinfo`), and for a Unix-domain socket
    /// `:uid:gid:pid` of the peer (`SO_PEERCRED`) after it. Nil when it has none (not a
    /// connected socket, or closed): for a descriptor another library owns.
    public static func peerAddress(ofForeign descriptor: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let written = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard written == 0 else { return nil }
        var address = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if Int32(storage.ss_family) == AF_UNIX {
            // struct ucred (pid, uid, gid), which Glibc exports only with _GNU_SOURCE; SO_PEERCRED is 17.
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var size = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
            guard getsockopt(descriptor, SOL_SOCKET, 17, &credentials, &size) == 0 else { return nil }
            address += ":\(credentials.uid):\(credentials.gid):\(credentials.pid)"
        }
        return address
    }

    /// `shutdown` of both directions of a connection another library owns: it sees the
    /// connection end and closes the descriptor itself. Whether it was shut down (a
    /// descriptor closed meanwhile is not an error here).
    @discardableResult
    public static func shutdownForeign(_ descriptor: Int32) -> Bool {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) == 0
    }
}
