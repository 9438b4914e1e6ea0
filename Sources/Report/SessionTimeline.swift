public import CatalogueVocabulary

/// One session as the report draws it: the presentation stack over event time, and its violations.
public struct SessionTimeline: Sendable {
    /// One presentation on the stack, from presentation to dismissal.
    public struct Span: Sendable {
        /// Alert, sheet, modal or popover.
        public var kind: PresentationKind
        /// The presentation id.
        public var id: String
        /// Its title, if any.
        public var title: String?
        /// Its place on the stack, 0 at the bottom.
        public var level: Int
        /// Event time presented.
        public var start: Int64
        /// Event time dismissed (or the session's last event when still open).
        public var end: Int64
        /// Still presented at the session's last event.
        public var open: Bool
    }

    /// A violation where it fired.
    public struct Mark: Sendable {
        /// Event time.
        public var ts: Int64
        /// Rule id.
        public var rule: String
        /// Severity.
        public var severity: Severity
        /// The presentation it is about.
        public var subject: String?
    }

    /// Session id.
    public var id: String
    /// Bundle id.
    public var app: String
    /// `app_version` from `session.start`, if sent.
    public var appVersion: String?
    /// Event time of its first event (or first violation, without events).
    public var start: Int64
    /// Event time of its last event (or last violation).
    public var end: Int64
    /// Events seen.
    public var events = 0
    /// Alerts presented.
    public var alerts = 0
    /// Deepest modal depth.
    public var maxModalDepth = 0
    /// Violations in the session (all of them, even past the marks kept).
    public var violations = 0
    /// Presentations, in order of presentation (at most `SessionTimeline.maxSpans`).
    public var spans: [Span] = []
    /// Violations (at most `SessionTimeline.maxMarks`).
    public var marks: [Mark] = []
    /// Whether the source had its events (false: violations only, no stack).
    public var hasEvents: Bool
    /// Spans not kept past the cap.
    public var spansDropped = 0
    /// Marks not kept past the cap.
    public var marksDropped = 0

    /// Spans kept per session.
    public static let maxSpans = 400
    /// Marks kept per session.
    public static let maxMarks = 400

    /// Creates an empty timeline.
    public init(id: String, app: String, start: Int64, hasEvents: Bool) {
        self.id = id
        self.app = app
        self.start = start
        self.end = start
        self.hasEvents = hasEvents
    }

    mutating func addMark(_ mark: Mark) {
        violations += 1
        start = min(start, mark.ts)
        end = max(end, mark.ts)
        if marks.count < Self.maxMarks { marks.append(mark) } else { marksDropped += 1 }
    }

    mutating func addSpan(_ span: Span) {
        if spans.count < Self.maxSpans { spans.append(span) } else { spansDropped += 1 }
    }
}
