import Foundation
import Logging

/// A `LogHandler` that keeps every line it is given, for asserting what a component logged.
struct CollectingLogHandler: LogHandler {
    /// The lines, shared by every copy of the handler.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(level: Logger.Level, message: String)] = []

        func append(_ level: Logger.Level, _ message: String) {
            lock.withLock { entries.append((level, message)) }
        }

        /// The messages logged at `level`.
        func messages(at level: Logger.Level) -> [String] {
            lock.withLock { entries.filter { $0.level == level }.map(\.message) }
        }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(event.level, event.message.description)
    }

    /// A logger writing into `lines`.
    static func logger(into lines: Lines) -> Logger {
        Logger(label: "modalwatch.tests") { _ in CollectingLogHandler(lines: lines) }
    }
}
