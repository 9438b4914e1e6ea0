import Glibc

/// Why a measurement could not be made.
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, and what to do.
    let message: String
    /// errno, when a system call failed.
    let errno: Int32?

    /// An error with a message.
    init(_ message: String, errno: Int32? = nil) {
        self.message = message
        self.errno = errno
    }

    /// An error of a failed system call, keeping errno.
    static func system(_ call: String, _ code: Int32 = Glibc.errno) -> BenchError {
        BenchError("\(call) failed: \(String(cString: strerror(code))) (errno \(code))", errno: code)
    }

    var description: String { message }
}
