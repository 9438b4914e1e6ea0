/// Everything wrong with one configuration file, in file order.
public struct ConfigErrors: Error, Sendable, CustomStringConvertible {
    /// Each error, one line each.
    public var errors: [ConfigError]

    /// Wraps errors.
    public init(_ errors: [ConfigError]) { self.errors = errors }

    /// One line per error.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
