/// One thing wrong in a configuration file: where, which key, and what to do.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// The line (1-based), or 0 when the whole file is concerned.
    public var line: Int
    /// The key, dotted from the top (`rules.alert-frequency.limit`), or "" for the file.
    public var key: String
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `FILE:LINE: KEY: MESSAGE`.
    public var description: String {
        let place = line > 0 ? "\(file):\(line)" : file
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}
