import Glibc

/// A system call that failed: which call, and `errno` as it was right after it
/// (read before anything else could change it).
public struct PosixError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call, e.g. `rename`.
    public let call: String
    /// `errno` right after the call.
    public let errno: Int32

    /// An error for `call` with `errno`.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// `strerror` of `errno`, e.g. `No such file or directory`.
    public var reason: String { String(cString: strerror(errno)) }

    /// `call: reason (errno N)`.
    public var description: String { "\(call): \(reason) (errno \(errno))" }
}
