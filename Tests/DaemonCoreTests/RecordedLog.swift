import InMemoryLogging
import Logging

/// What a logger said, kept in memory (`InMemoryLogHandler`), as lines: level, message and the
/// metadata as `key=value`, for tests that check what the daemon logs.
struct RecordedLog {
    private let handler = InMemoryLogHandler()

    /// A logger whose lines are kept here, at every level.
    var logger: Logger {
        let handler = handler
        var logger = Logger(label: "modalwatch.tests") { _ in handler }
        logger.logLevel = .trace
        return logger
    }

    /// The lines so far.
    var all: [String] {
        handler.entries.map { entry in
            let fields = entry.metadata.keys.sorted().map { "\($0)=\(entry.metadata[$0]!)" }.joined(separator: " ")
            return "\(entry.level) \(entry.message) \(fields)"
        }
    }

    /// The lines at `error` or above.
    var errors: [String] { all.filter { $0.hasPrefix("error ") || $0.hasPrefix("critical ") } }
}
