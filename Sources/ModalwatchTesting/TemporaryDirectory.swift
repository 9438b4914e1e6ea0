public import Foundation

/// A directory of its own under the system's temporary folder (`mkdtemp`), for a test's state
/// directory, history files, sockets and spool: made at `init`, removed with everything in it by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// The directory's path (no trailing slash).
    public let path: String

    /// The directory as a file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// Makes `TMPDIR/PREFIX-XXXXXX`; `prefix` names the test in a listing of the folder.
    /// The path is kept short, for `ipc://` endpoints (at most 107 bytes on Linux).
    public init(prefix: String = "mw-test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base.hasSuffix("/") ? String(base.dropLast()) : base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TemporaryDirectoryError(
                path: String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self),
                errno: errno
            )
        }
        path = String(cString: made)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The URL of `name` inside the directory.
    public func fileURL(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Removes the directory and everything in it (nothing if it is gone already).
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// `mkdtemp` failed.
public struct TemporaryDirectoryError: Error, CustomStringConvertible, Sendable {
    /// The template that could not be made.
    public let path: String
    /// `errno` of the failure.
    public let errno: Int32

    /// One line: the template, the reason, the errno.
    public var description: String { "cannot make \(path): \(String(cString: strerror(errno))) (errno \(errno))" }
}
