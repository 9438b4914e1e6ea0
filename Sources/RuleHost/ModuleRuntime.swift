import ByteBasics
public import Logging
public import ModalwatchABI
import Posix
import Synchronization

/// One loaded module at run time (ABI 1.2): the state its `on_init` stored, its log
/// lines (rate-limited per module) and its count of non-fatal errors.
///
/// Shared by every engine that uses the catalog. `state` is written once, while the
/// loader initializes the module and before the runtime is shared; the counters are
/// atomic or under a lock. When the last catalog holding it goes, `on_destroy` runs.
public final class ModuleRuntime: @unchecked Sendable {
    /// The module's name.
    public let name: String
    /// What the module's `on_init` stored, else its `mw_module.state`: every call's `module_state`.
    public internal(set) var state: UnsafeMutableRawPointer?
    /// Log lines a module may write per second; the rest are counted and dropped.
    public static let logLinesPerSecond = 20

    private let logger: Logger
    private var destroy: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    private let errorCount = Atomic<UInt64>(0)
    private let logWindow = Mutex(LogWindow())
    /// The last error or error-level line the module wrote, for a refused `on_init`.
    private let lastError = Mutex<String?>(nil)

    private struct LogWindow {
        var second: Int64 = .min
        var lines = 0
        var dropped: UInt64 = 0
    }

    /// Creates the runtime of module `name`, logging to `logger`.
    public init(name: String, logger: Logger) {
        self.name = name
        self.logger = logger
    }

    deinit {
        destroy?(state)
    }

    /// Errors the module reported (`mw_host.module_error`), since it loaded.
    public var errors: UInt64 { errorCount.load(ordering: .relaxed) }

    /// Log lines dropped by the per-module rate limit.
    public var logLinesDropped: UInt64 { logWindow.withLock { $0.dropped } }

    /// The last error the module reported or logged at error level.
    var lastErrorMessage: String? { lastError.withLock { $0 } }

    /// Sets the state and the function that releases it (once, while loading).
    func adopt(state: UnsafeMutableRawPointer?, destroy: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?) {
        self.state = state
        self.destroy = destroy
    }

    /// `mw_host.log`: one line into the daemon's log with the module's name, unless the
    /// module wrote more than `logLinesPerSecond` this second.
    /// `context` goes into the line's metadata (e.g. `rule`, `session`).
    public func log(level: UInt32, message: String, context: [String: String] = [:]) {
        if level >= UInt32(MW_LOG_ERROR.rawValue) { lastError.withLock { $0 = message } }
        write(level: level, message: message, metadata: context.mapValues { .string($0) })
    }

    /// One line, within the module's rate.
    private func write(level: UInt32, message: String, metadata: Logger.Metadata) {
        let now = Self.monotonicSecond()
        let dropped: UInt64? = logWindow.withLock { window in
            if window.second != now {
                window.second = now
                window.lines = 0
            }
            window.lines += 1
            guard window.lines <= Self.logLinesPerSecond else {
                window.dropped += 1
                return nil
            }
            return window.dropped
        }
        guard let dropped else { return }
        var metadata = metadata
        metadata["module"] = "\(name)"
        if dropped > 0 { metadata["log_lines_dropped"] = "\(dropped)" }
        logger.log(level: Self.level(level), "\(message)", metadata: metadata)
    }

    /// `mw_host.module_error`: counts the error and logs it (rate-limited); returns the new count.
    @discardableResult
    public func recordError(_ detail: String, context: [String: String] = [:]) -> UInt64 {
        lastError.withLock { $0 = detail }
        let count = errorCount.add(1, ordering: .relaxed).newValue
        var metadata: Logger.Metadata = context.mapValues { .string($0) }
        metadata["module_errors"] = "\(count)"
        metadata["detail"] = "\(detail)"
        write(level: UInt32(MW_LOG_ERROR.rawValue), message: "rule module error", metadata: metadata)
        return count
    }

    private static func level(_ level: UInt32) -> Logger.Level {
        switch level {
        case UInt32(MW_LOG_DEBUG.rawValue): return .debug
        case UInt32(MW_LOG_INFO.rawValue): return .info
        case UInt32(MW_LOG_WARNING.rawValue): return .warning
        default: return .error
        }
    }

    private static func monotonicSecond() -> Int64 { PosixClock.monotonic.seconds() }

    /// The text of a module's string slice (lossy for bad UTF-8; empty when absent).
    public static func text(_ string: mw_str) -> String {
        guard let pointer = string.ptr else { return "" }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: min(string.len, 4096))
        return String(decoding: bytes, as: UTF8.self)
    }
}
