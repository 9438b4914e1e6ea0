/// A worked example a rule ships: a stream and how many times the rule fires on it.
public struct RuleExample: Sendable, Equatable {
    /// A short name, e.g. "four alerts in ten minutes".
    public var name: String
    /// The editions in which `expected` holds.
    public var editions: [Edition]
    /// How many violations of the rule the stream yields.
    public var expected: Int
    /// The stream, NDJSON.
    public var events: String

    /// Creates an example.
    public init(name: String, editions: [Edition], expected: Int, events: String) {
        self.name = name
        self.editions = editions
        self.expected = expected
        self.events = events
    }
}
