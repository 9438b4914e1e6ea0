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
            return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) } }
        default:
            return nil
        }
    }

    /// `shutdown` of both directions of a connection another library owns: it sees the
    /// connection end and closes the descriptor itself. Whether it was shut down (a
    /// descriptor closed meanwhile is not an error here).
    @discardableResult
    public static func shutdownForeign(_ descriptor: Int32) -> Bool {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) == 0
    }
}
