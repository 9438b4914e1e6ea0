public import Logging
import Posix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Log lines for the systemd journal, written to stderr when it is the journal's stream:
/// each line starts with its syslog priority as sd-daemon.h spells it (`<3>` error, `<4>`
/// warning, `<6>` info, `<7>` debug, ...), so that `journalctl -p err` filters them; it has
/// no timestamp of its own (the journal stamps each entry); the message comes first, then
/// the metadata as `logfmt` fields (`key=value`, sorted by key; a value with a space, `=`,
/// a quote, a backslash or a control character is quoted and escaped).
public struct JournalLogHandler: LogHandler {
    /// The handler's own metadata.
    public var metadata: Logger.Metadata = [:]
    /// The level at and above which it logs.
    public var logLevel: Logger.Level = .info
    /// The metadata provider, if any.
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler for one logger (the label is the journal's `SYSLOG_IDENTIFIER`'s business, not the line's).
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.metadataProvider = metadataProvider
    }

    /// The sd-daemon.h priority of a level: `SD_CRIT` 2 ... `SD_DEBUG` 7 (trace is debug too).
    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Writes one line, at once.
    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let explicit = event.metadata { fields.merge(explicit) { _, new in new } }
        if let error = event.error { fields["error"] = .string("\(error)") }
        let line = Self.line(level: event.level, message: event.message.description, fields: fields)
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { Posix.writeAllOrStop(STDERR_FILENO, $0) }
    }

    /// The line for a message (without its newline): `<N>message key=value ...`.
    public static func line(level: Logger.Level, message: String, fields: Logger.Metadata) -> String {
        var line = "<\(priority(level))>" + escapingControls(message)
        for key in fields.keys.sorted() {
            guard let value = fields[key] else { continue }
            line += " " + logfmt(key) + "=" + logfmt(text(value))
        }
        return line
    }

    /// A metadata value as text: strings as they are, a list's items joined by commas, a
    /// dictionary's `key:value` pairs (sorted) joined by commas.
    private static func text(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let items): items.map(text).joined(separator: ",")
        case .dictionary(let pairs):
            pairs.keys.sorted().map { "\($0):\(pairs[$0].map(text) ?? "")" }.joined(separator: ",")
        }
    }

    /// A logfmt key or value: as it is when plain, else in quotes with `"`, `\` and control
    /// characters escaped; `""` when empty.
    static func logfmt(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        let plain = text.unicodeScalars.allSatisfy {
            $0.value > 0x20 && $0 != "=" && $0 != "\"" && $0 != "\\" && $0.value != 0x7F
        }
        if plain { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default: quoted += escapingControls(String(scalar))
            }
        }
        return quoted + "\""
    }

    /// `text` with newlines, tabs and other control characters written as escapes (`\n`,
    /// `\t`, `\u{1b}`): one entry stays one line.
    static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A metadata value by key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
