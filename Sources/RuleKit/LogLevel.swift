/// How serious a module's log line is (`mw_log_level`).
public enum LogLevel: UInt32, Sendable {
    /// Detail for whoever debugs the module.
    case debug = 0
    /// Something worth knowing.
    case info = 1
    /// Something wrong that the module works around.
    case warning = 2
    /// Something wrong that the module cannot work around.
    case error = 3
}
