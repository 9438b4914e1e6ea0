/// Where a report's data came from, and so what it can show.
public struct ReportSource: Sendable {
    /// The kind of source.
    public enum Kind: String, Sendable {
        /// Recorded NDJSON streams, judged offline: events and violations.
        case streams
        /// The history file: violations only.
        case history
        /// Running daemons, through their control sockets: the history's violations, and their counters.
        case daemons
    }

    /// The kind.
    public var kind: Kind
    /// The files, history path or endpoints, as named.
    public var names: [String]
    /// The guideline edition the streams were judged by (streams only).
    public var edition: String?
    /// When the report was made (ms since the epoch).
    public var generated: Int64
    /// Events received, as the daemons count them (daemons only).
    public var daemonEvents: Int?
    /// Sessions live in the daemons now (daemons only).
    public var daemonLiveSessions: Int?
    /// Problems met while reading that the reader should know (rejected events, unreachable parts...).
    public var notes: [String]

    /// Creates a source description.
    public init(
        kind: Kind,
        names: [String],
        edition: String? = nil,
        generated: Int64,
        daemonEvents: Int? = nil,
        daemonLiveSessions: Int? = nil,
        notes: [String] = []
    ) {
        self.kind = kind
        self.names = names
        self.edition = edition
        self.generated = generated
        self.daemonEvents = daemonEvents
        self.daemonLiveSessions = daemonLiveSessions
        self.notes = notes
    }
}
