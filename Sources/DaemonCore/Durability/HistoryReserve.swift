import Glibc
import Posix

/// Room the history keeps for itself on its file system: a file of `bytes` (`history.reserve`
/// in the state directory) given back when the store fails, and taken again once it is healthy.
///
/// A history can fill its disk by itself (its rows up to the next retention, its WAL). Then
/// nothing in SQLite can make room: the retention's `DELETE` needs WAL space, and a
/// checkpoint that would shrink the WAL needs to grow the file. With the reserve given back,
/// the retention and a TRUNCATE checkpoint can run, and the spool is written back
/// (docs/RELIABILITY.md, "A history that fills its disk by itself"). Owned by the publishing
/// thread, like the history's writer connection.
struct HistoryReserve {
    /// The file's name in the state directory.
    static let fileName = "history.reserve"
    /// The reserve's size.
    static let defaultBytes = 4 << 20

    private let path: String
    private let bytes: Int
    /// Whether the reserve's blocks are allocated, as far as this process knows.
    private(set) var isInPlace = false

    /// The reserve for the history in `directory`; nothing is allocated yet (`take`).
    init(directory: String, bytes: Int = Self.defaultBytes) {
        path = directory + "/" + Self.fileName
        self.bytes = bytes
    }

    /// Allocates the reserve if it is not in place (an earlier run's file is kept as it is).
    /// Returns whether it is in place now: false when the file system has no room for it.
    @discardableResult
    mutating func take() -> Bool {
        guard !isInPlace, bytes > 0 else { return isInPlace }
        do {
            let descriptor = try Posix.open(path, O_WRONLY | O_CREAT, mode: 0o600)
            defer { try? Posix.close(descriptor) }
            do {
                try Posix.allocate(descriptor, size: bytes)
            } catch {
                try? Posix.truncate(descriptor, to: 0)
                return false
            }
            isInPlace = true
            return true
        } catch {
            return false
        }
    }

    /// Gives the reserve's blocks back to the file system. Returns whether there were any.
    mutating func giveBack() -> Bool {
        guard isInPlace else { return false }
        isInPlace = false
        return (try? Posix.unlink(path)) != nil
    }
}
