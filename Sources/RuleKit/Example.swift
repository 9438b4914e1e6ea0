/// A worked example (`mw_example`): an NDJSON stream, starting with
/// `session.start`, and how many times the rule fires on it in `editions`.
/// The examples are the rule's tests: the host's test suite runs every one.
public struct Example: Sendable {
    /// A short name, e.g. `four alerts in ten minutes`.
    public var name: String
    /// The editions the expectation holds in.
    public var editions: Editions
    /// Violations of this rule the stream yields.
    public var expected: UInt32
    /// The stream: one event object per line.
    public var events: String

    /// Declares an example. `events` is NDJSON; leading indentation and blank
    /// lines are removed, so a multi-line string literal can be indented freely.
    /// Use a raw literal (`#"""`) when the JSON contains backslash escapes.
    public init(_ name: String, expected: UInt32, in editions: Editions = .all, events: String) {
        self.name = name
        self.editions = editions
        self.expected = expected
        self.events = Example.normalize(events)
    }

    private static func normalize(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { line in line.drop { $0 == " " || $0 == "\t" } }
            .filter { !$0.isEmpty }
            .joined(separator: "\n") + "\n"
    }
}
