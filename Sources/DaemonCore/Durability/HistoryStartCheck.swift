import Foundation
import Glibc
import HistoryStore
import Logging
import Posix

/// The history file checked at start, before anything writes to it (docs/RELIABILITY.md):
/// a damaged file (not a database, or failing `PRAGMA quick_check`) is moved aside as
/// `history.sqlite.damaged-<UTC time>` with its WAL, and the daemon starts a fresh
/// history, saying so in one log line; a sound database that is not a modalwatch
/// history (a foreign schema), or a history of a version this release does not read, is refused
/// at start in one line, and left as it is.
enum HistoryStartCheck {
    /// Checks `path`; moves a damaged file aside (named with the time on `clock`); throws a
    /// one-line error for a foreign one.
    static func prepare(_ path: String, clock: DaemonClock, logger: Logger) throws(DaemonError) {
        switch HistoryInspection.inspect(path: path) {
        case .absent, .sound:
            return
        case .foreign(let what):
            throw DaemonError(
                .configuration,
                "the history \(path) is not a modalwatch history: \(what); move it away or choose another --state-dir"
            )
        case .unsupported(let what):
            throw DaemonError(.configuration, "the history \(path) \(what)")
        case .damaged(let why):
            let stamp = clock.utcStamp()
            let aside = "\(path).damaged-\(stamp)"
            do { try Posix.rename(path, aside) } catch {
                throw DaemonError(
                    .systemCall,
                    "the history \(path) is damaged (\(why)) and could not be moved aside: \(error.reason)",
                    underlying: error
                )
            }
            for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
                do { try Posix.rename(path + suffix, aside + suffix) } catch { try? Posix.unlink(path + suffix) }
            }
            logger.error(
                "the history was damaged; moved aside and started afresh",
                metadata: [
                    "reason": "\(why)", "moved_to": "\(aside)",
                ]
            )
        }
    }
}
