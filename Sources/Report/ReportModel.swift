import ByteBasics
import CatalogueVocabulary
import Foundation

/// Everything a report shows, built incrementally from violations and, for recorded streams, the
/// events, in bounded memory: counters by rule, app, version and severity, time buckets that widen
/// as they fill, heavy-hitter counters for presentations and sessions, and full timelines only for
/// the sessions still live and the worst `worstSessionCount` finished ones.
public final class ReportModel {
    /// The rules the report can cite, by id.
    public let rules: [String: ReportRule]
    /// What the report is limited to.
    public let filter: ReportFilter
    /// How many of the worst sessions get a timeline.
    public let worstSessionCount: Int

    /// Whether events were observed (recorded streams), or only violations (a history).
    public private(set) var hasEvents = false
    /// Events inside the filter.
    public private(set) var events = 0
    /// Violations by severity.
    public private(set) var severities = SeverityCounts()
    /// Violations by rule.
    public private(set) var byRule: [String: SeverityCounts] = [:]
    /// Violations by app.
    public private(set) var byApp: [String: SeverityCounts] = [:]
    /// Violations by their `locale`, `""` for those without one; at most `maxLocales` tags, the
    /// violations of any later tag counted under `otherLocales`.
    public private(set) var byLocale: [String: SeverityCounts] = [:]
    /// Violations of tags past the first `maxLocales`.
    public private(set) var otherLocales = SeverityCounts()
    /// The most distinct `locale` tags counted one by one.
    public static let maxLocales = 100
    /// Violations over event time.
    public private(set) var time = TimeBuckets()
    /// By app and `app_version` (from `session.start`): sessions and violations.
    public private(set) var byVersion: [VersionKey: (sessions: Int, violations: Int)] = [:]
    /// Sessions by their deepest modal depth (streams only).
    public private(set) var maxDepthHistogram: [Int: Int] = [:]
    /// Sessions by the alerts they presented (streams only).
    public private(set) var alertsHistogram: [Int: Int] = [:]
    /// Alerts and sheets (and modals) by the violations about them.
    public private(set) var presentations = TopCounter<String, WorstPresentation>(capacity: 2048)
    /// Sessions with violations, by their count (violations-only sources).
    public private(set) var sessionCounter = TopCounter<String, SessionTimeline>(capacity: 2048)
    /// The worst finished sessions, worst first (streams).
    public private(set) var worst: [SessionTimeline] = []
    /// Violations whose rule is not in `rules`.
    public private(set) var unknownRules: Set<String> = []

    private var live: [String: SessionTrack] = [:]
    private var sessionHashes: Set<Int> = []
    private var finishedSessions = 0

    /// An app and one of its versions.
    public struct VersionKey: Hashable, Sendable {
        /// Bundle id.
        public var app: String
        /// `app_version`.
        public var version: String

        /// Creates a key.
        public init(app: String, version: String) {
            self.app = app
            self.version = version
        }
    }

    /// An empty model.
    public init(rules: [ReportRule], filter: ReportFilter = .init(), worstSessionCount: Int = 5) {
        self.rules = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.filter = filter
        self.worstSessionCount = worstSessionCount
    }

    /// Sessions: from events, those with an event inside the filter; from a history, the distinct
    /// sessions among the violations counted.
    public var sessions: Int { hasEvents ? finishedSessions : sessionHashes.count }

    /// Violations counted.
    public var violations: Int { severities.total }

    /// Counts one violation. For streams, call it after the event that triggered it was observed.
    public func add(_ violation: ReportViolation) {
        guard filter.contains(app: violation.app), filter.contains(ts: violation.ts) else { return }
        // A history may hold any time an older daemon stored: held inside the accepted range,
        // so that every span and duration below is a difference that cannot overflow.
        var violation = violation
        violation.ts = EventTime.clamped(violation.ts)
        severities.add(violation.severity)
        byRule[violation.rule, default: SeverityCounts()].add(violation.severity)
        byApp[violation.app, default: SeverityCounts()].add(violation.severity)
        let locale = violation.locale ?? ""
        if byLocale[locale] != nil || byLocale.count < Self.maxLocales {
            byLocale[locale, default: SeverityCounts()].add(violation.severity)
        } else {
            otherLocales.add(violation.severity)
        }
        if rules[violation.rule] == nil { unknownRules.insert(violation.rule) }
        time.add(ts: violation.ts, severity: violation.severity)
        let mark = SessionTimeline.Mark(
            ts: violation.ts,
            rule: violation.rule,
            severity: violation.severity,
            subject: violation.subject
        )
        // What the subject is: as the violation's events say, else as the rule's metadata says; a
        // presentation first counted without a kind takes the kind a later violation gives.
        let kind = violation.subjectKind ?? rules[violation.rule]?.kind
        if let track = live[violation.session] {
            track.timeline.addMark(mark)
            if let version = track.timeline.appVersion {
                byVersion[VersionKey(app: track.timeline.app, version: version), default: (0, 0)].violations += 1
            }
            if let subject = violation.subject, let key = track.presentationKeys[subject] {
                presentations.add(
                    key,
                    amount: 1,
                    make: {
                        WorstPresentation(kind: kind, app: violation.app, id: subject)
                    },
                    update: {
                        $0.kind = $0.kind ?? kind
                        $0.record(
                            rule: violation.rule,
                            message: violation.message,
                            suggestion: violation.suggestion,
                            corrected: violation.corrected
                        )
                    }
                )
            }
            return
        }
        sessionHashes.insert(violation.session.hashValue)
        sessionCounter.add(
            violation.session,
            make: {
                SessionTimeline(id: violation.session, app: violation.app, start: violation.ts, hasEvents: false)
            },
            update: { $0.addMark(mark) }
        )
        if let subject = violation.subject {
            let key = "\(violation.app)\u{0}\(violation.session)\u{0}\(subject)"
            presentations.add(
                key,
                amount: 1,
                make: {
                    WorstPresentation(kind: kind, app: violation.app, id: subject, session: violation.session)
                },
                update: {
                    $0.kind = $0.kind ?? kind
                    $0.record(
                        rule: violation.rule,
                        message: violation.message,
                        suggestion: violation.suggestion,
                        corrected: violation.corrected
                    )
                }
            )
        }
    }

    // MARK: events

    /// The live session `id`, created at its first event.
    func track(_ id: String, app: String?, ts: Int64) -> SessionTrack {
        hasEvents = true
        if let track = live[id] { return track }
        let track = SessionTrack(id: id, app: app ?? "", start: ts)
        live[id] = track
        return track
    }

    /// Whether an event of `track` at `ts` is inside the filter; counts it when it is.
    func count(_ track: SessionTrack, ts: Int64) -> Bool {
        guard filter.contains(app: track.timeline.app), filter.contains(ts: ts) else { return false }
        events += 1
        track.counted = true
        return true
    }

    /// A presentation: pushed on the stack, counted, its texts remembered for the violations about it.
    func present(
        _ track: SessionTrack,
        kind: PresentationKind,
        id: String,
        title: String?,
        message: String?,
        buttons: [String],
        ts: Int64,
        counted: Bool
    ) {
        track.push(.init(id: id, kind: kind, title: title, start: ts))
        if counted {
            if kind == .alert { track.timeline.alerts += 1 }
            track.timeline.maxModalDepth = max(track.timeline.maxModalDepth, track.modalDepth)
        }
        guard kind != .popover else { return }
        var key = "\(track.timeline.app)\u{0}\(kind.name)\u{0}\(title ?? "\u{1}")\u{0}\(message ?? "\u{1}")"
        for button in buttons { key += "\u{0}" + button }
        if kind == .modal { key += "\u{0}" + id }
        track.remember(presentation: id, key: key)
        guard counted else { return }
        let app = track.timeline.app
        presentations.add(
            key,
            amount: 0,
            make: {
                WorstPresentation(kind: kind, app: app, id: id, title: title, message: message, buttons: buttons)
            },
            update: { $0.shown += 1 }
        )
    }

    /// The session ends: its numbers go into the distributions, and it may be one of the worst.
    func end(_ id: String, at ts: Int64) {
        guard let track = live.removeValue(forKey: id) else { return }
        finish(track, at: ts)
    }

    /// Ends every session still live (at the end of the input): their open presentations end at their last event.
    public func finishLiveSessions() {
        for track in live.values.sorted(by: { $0.timeline.id < $1.timeline.id }) {
            finish(track, at: track.timeline.end)
        }
        live.removeAll()
    }

    private func finish(_ track: SessionTrack, at ts: Int64) {
        track.timeline.end = max(track.timeline.end, ts)
        track.close(from: 0, at: track.timeline.end, open: true)
        guard track.counted else { return }
        finishedSessions += 1
        let timeline = track.timeline
        maxDepthHistogram[timeline.maxModalDepth, default: 0] += 1
        alertsHistogram[timeline.alerts, default: 0] += 1
        if let version = timeline.appVersion {
            byVersion[VersionKey(app: timeline.app, version: version), default: (0, 0)].sessions += 1
        }
        guard timeline.violations > 0 else { return }
        let position = worst.firstIndex { Self.isWorse(timeline, than: $0) } ?? worst.count
        if position < worstSessionCount {
            worst.insert(timeline, at: position)
            if worst.count > worstSessionCount { worst.removeLast() }
        }
    }

    /// More violations, then more alerts, then the smaller id.
    static func isWorse(_ a: SessionTimeline, than b: SessionTimeline) -> Bool {
        if a.violations != b.violations { return a.violations > b.violations }
        if a.alerts != b.alerts { return a.alerts > b.alerts }
        return a.id < b.id
    }

    /// The worst sessions: from streams, the finished ones; from a history, those with the most violations.
    /// Their marks are in event-time order whatever order the violations came in.
    public var worstSessions: [SessionTimeline] {
        let sessions = hasEvents ? worst : sessionCounter.top(worstSessionCount) { $0.key < $1.key }.map(\.value)
        return sessions.map { session in
            var session = session
            session.marks.sort { $0.ts != $1.ts ? $0.ts < $1.ts : $0.rule < $1.rule }
            return session
        }
    }
}

/// A model is built and read on one thread.
@available(*, unavailable)
extension ReportModel: Sendable {}
