import ModalwatchABI

/// What a module's state factory gets when the host initializes it (`mw_init`, ABI 1.2):
/// the module's settings from the configuration (`modules: {NAME: {key: value}}`), and the
/// host's log and error channel. Valid only while the factory runs.
public struct ModuleSettings {
    /// The settings in the configuration's order; values are the YAML scalars as written.
    public let entries: [(key: String, value: String)]
    private let raw: UnsafePointer<mw_init>?

    /// Reads the host's `mw_init`.
    init(_ raw: UnsafePointer<mw_init>?) {
        self.raw = raw
        var entries: [(key: String, value: String)] = []
        if let raw, let settings = raw.pointee.settings {
            for index in 0..<Int(raw.pointee.setting_count) {
                entries.append((Self.string(settings[index].key), Self.string(settings[index].value)))
            }
        }
        self.entries = entries
    }

    /// Settings for a test or a host older than 1.2 (no log).
    public init(entries: [(key: String, value: String)]) {
        self.entries = entries
        self.raw = nil
    }

    /// The value of setting `key`, or nil when the configuration does not give it.
    public subscript(key: String) -> String? {
        entries.first(where: { $0.key == key })?.value
    }

    /// One line into the daemon's log, attributed to the module.
    public func log(_ level: LogLevel, _ message: String) {
        guard let raw, let host = raw.pointee.host, let log = host.pointee.log else { return }
        var message = message
        message.withUTF8 { bytes in log(raw.pointee.ctx, level.rawValue, RuleCall.present(bytes)) }
    }

    /// Reports a non-fatal error of the module: counted, logged, shown in `status`.
    /// To refuse to start instead, throw from the state factory.
    public func reportError(_ detail: String) {
        guard let raw, let host = raw.pointee.host, let report = host.pointee.module_error else { return }
        var detail = detail
        detail.withUTF8 { bytes in report(raw.pointee.ctx, RuleCall.present(bytes)) }
    }

    private static func string(_ value: mw_str) -> String {
        guard let pointer = value.ptr else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: value.len), as: UTF8.self)
    }
}
