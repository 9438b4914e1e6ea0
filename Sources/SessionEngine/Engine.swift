public import CRuleGuard
import Glibc
public import ModalwatchABI
public import RuleHost

/// Judges events: keeps each session's state, runs the rules that want each
/// event, applies their firing discipline and writes the violations.
///
/// One engine belongs to one thread; it never blocks and never hops threads.
/// Rules judge by event time only, so the same stream gives the same
/// violations live and in `modalwatch check` (`observed` aside).
public final class Engine {
    /// The counters `status` reports.
    public internal(set) var statistics = EngineStatistics()
    /// The modules and rules in use.
    public let catalog: RuleCatalog
    /// The configuration in force.
    public private(set) var configuration: EngineConfiguration

    let output: any EngineOutput
    /// `output`, when it takes violations written straight into its own buffer.
    let writingOutput: (any ViolationWritingOutput)?
    var defaultProfile: RuleProfile
    /// Every app remembered, by name (a `Dictionary`: its hash is the process's seeded `Hasher`,
    /// so app names from events cannot be chosen to collide).
    var apps: [String: AppState] = [:]
    /// The apps without a live session, least recently seen first (forgotten past `max_apps`).
    var idleApps = IdleApps()
    let table = SessionTable()
    var observed: Int64 = 0

    /// Per rule (by catalog index, the first of its id): violations the rate limit held back.
    let heldByRule: UnsafeMutablePointer<UInt64>
    private let heldByRuleCount: Int
    /// The apps whose violations the rate limit held back most.
    var heldBackApps = HeldBackApps()
    /// Rule calls made so far: tells one call from the next (the rate limit counts a
    /// report `should_report` already refused in the same call once).
    var ruleCallSerial: UInt64 = 0
    /// The call and the subject-and-key hash `should_report` last refused for the rate limit.
    var lastRateRefusal: (call: UInt64, report: UInt64) = (0, 0)

    /// What a rule call's `ctx` points to (`RuleCallFrame`): reused for every call.
    let callFrame = UnsafeMutablePointer<RuleCallFrame>.allocate(capacity: 1)

    // Scratch, reused for every event.
    /// The event judged when it differs from the decoder's (a copy): its time raised to the
    /// session's latest, or the session's `locale` given to an event without its own.
    let clampedEvent = UnsafeMutablePointer<mw_event>.allocate(capacity: 1)
    let dismissedView = UnsafeMutablePointer<mw_presentation>.allocate(capacity: 1)
    let dismissedID = UnsafeMutablePointer<UInt8>.allocate(capacity: Engine.maxDismissedIDBytes)
    static let maxDismissedIDBytes = 1024
    /// The title of the presentation the current dismissal removed (`mw_session.dismissed_title`).
    let dismissedTitle = UnsafeMutablePointer<UInt8>.allocate(capacity: Session.maxTitleBytes)
    /// Its length in bytes; 0 when it had none.
    var dismissedTitleLength = 0
    /// The recent events of every session, for `modalwatch session ID` (a fixed ring).
    public let journal = SessionJournal()
    /// The sessions' `locale` tags, each stored once.
    let locales = LocaleTable()
    /// The judgements skipped for their language, by rule and language (rules.md, "Languages").
    var languageSkips: LanguageSkips
    /// True when the current event's texts are all ASCII, as the decoder found (`process`).
    var textsAreASCII = false
    /// The words of the current event's texts, read once per event for every rule (`mw_host.words`).
    var eventWords = EventWords()
    var json = JSONBuffer(capacity: 8192)
    var topic = JSONBuffer(capacity: 512)
    let host = UnsafeMutablePointer<mw_host>.allocate(capacity: 1)
    /// Written around every rule call: which rule, on which event (docs/RELIABILITY.md). The
    /// engine's own until `useMarker(_:)` hands it the daemon's file-backed one.
    public private(set) var marker: UnsafeMutablePointer<mw_marker>
    private let ownMarker = UnsafeMutablePointer<mw_marker>.allocate(capacity: 1)

    /// The most presentations one session's stack holds; a stream that never dismisses cannot grow it further.
    public static let maxStackDepth = 256

    /// Creates an engine for the rules of `catalog` under `configuration`, sending what it finds to `output`.
    public init(catalog: RuleCatalog, configuration: EngineConfiguration, output: any EngineOutput) {
        self.catalog = catalog
        self.configuration = configuration
        self.output = output
        writingOutput = output as? any ViolationWritingOutput
        self.defaultProfile = RuleProfile(catalog: catalog, configuration: configuration, app: nil)
        clampedEvent.initialize(to: mw_event())
        heldByRuleCount = max(catalog.rules.count, 1)
        heldByRule = .allocate(capacity: heldByRuleCount)
        heldByRule.initialize(repeating: 0, count: heldByRuleCount)
        languageSkips = LanguageSkips(rules: catalog.rules.count)
        host.initialize(to: Self.makeHost())
        ownMarker.initialize(to: mw_marker())
        marker = ownMarker
        callFrame.initialize(to: RuleCallFrame(engine: .passUnretained(self)))
    }

    /// Marks rule calls in `marker` from now on (the daemon's, in a file in the state directory).
    /// It must stay valid for the engine's life.
    public func useMarker(_ marker: UnsafeMutablePointer<mw_marker>) {
        self.marker = marker
    }

    deinit {
        clampedEvent.deallocate()
        dismissedView.deallocate()
        dismissedID.deallocate()
        dismissedTitle.deallocate()
        host.deallocate()
        callFrame.deinitialize(count: 1)
        callFrame.deallocate()
        ownMarker.deallocate()
        heldByRule.deallocate()
        eventWords.deallocate()
    }

    /// Live sessions.
    public var liveSessions: Int { table.count }

    /// Violations held back by the per-rule rate limit, by rule id (for `status`).
    public var violationsRateLimitedByRule: [String: UInt64] {
        var result: [String: UInt64] = [:]
        for (index, rule) in catalog.rules.enumerated() where result[rule.id] == nil {
            let held = heldByRule[index]
            if held > 0 { result[rule.id] = held }
        }
        return result
    }

    /// The judgements skipped for their language (rules.md, "Languages"), by rule id, then
    /// language subtag (`und` undetermined, `other` past 64 languages), for `status`.
    public var languagesSkipped: [String: [String: UInt64]] {
        var result: [String: [String: UInt64]] = [:]
        for (index, languages) in languageSkips.byRule {
            result[catalog.rules[index].id, default: [:]].merge(languages, uniquingKeysWith: +)
        }
        return result
    }

    /// Violations held back by the per-app rate limit, for the apps that held back most
    /// (at most ten, for `status`).
    public var violationsRateLimitedByApp: [String: UInt64] { heldBackApps.byApp }

    /// The profile in force for `app` (its edition, rules and parameters).
    public func profile(forApp app: String?) -> RuleProfile {
        guard let app else { return defaultProfile }
        return apps[app]?.profile
            ?? (configuration.apps[app] == nil
                ? defaultProfile
                : RuleProfile(catalog: catalog, configuration: configuration, app: app))
    }

    /// Puts a new configuration in force; sessions keep their state.
    public func reconfigure(_ configuration: EngineConfiguration) {
        self.configuration = configuration
        defaultProfile = RuleProfile(catalog: catalog, configuration: configuration, app: nil)
        for (name, app) in apps {
            app.profile =
                configuration.apps[name] == nil
                ? defaultProfile
                : RuleProfile(catalog: catalog, configuration: configuration, app: name)
        }
        forgetAppsPastBound(reserving: 0)
    }

    /// Judges one decoded event. `observed` is the wall clock (ms) for the violations' `observed`;
    /// `textsAreASCII`, when the decoder knows every text of the event is ASCII (without a
    /// `locale` such texts are judged as English without being read for their scripts).
    public func process(_ eventPointer: UnsafePointer<mw_event>, observed: Int64, textsAreASCII: Bool = false) {
        statistics.eventsAccepted += 1
        self.observed = observed
        self.textsAreASCII = textsAreASCII
        let event = eventPointer
        let type = event.pointee.type
        guard type != MW_EVENT_UNKNOWN.rawValue, type < MW_EVENT_TYPE_COUNT.rawValue else {
            statistics.eventsUnknownType += 1
            return
        }
        let sessionID = UnsafeRawBufferPointer(start: event.pointee.session.ptr, count: event.pointee.session.len)
        if let session = table.find(sessionID) {
            guard resume(event, session) else { return }
            if applyAndJudge(event, session: session, observed: observed) { release(session) }
        } else if event.pointee.app.ptr == nil, !configuration.startsSessionsWithoutApp {
            refuseUnknownSession(event, sessionID)
        } else {
            let session = startSession(id: sessionID, event: event)
            countMissingBeforeFirst(event, session)
            _ = checkSequence(event, session)
            if applyAndJudge(event, session: session, observed: observed) { release(session) }
        }
    }

    /// An event of a live session: whether it passes the checks; restarts the session if
    /// it is a new launch or comes after the idle timeout.
    @inline(__always)
    private func resume(_ event: UnsafePointer<mw_event>, _ session: Session) -> Bool {
        if !checkApp(event, session) { return false }
        if !checkSequence(event, session) { return false }
        let isStart = event.pointee.type == MW_EVENT_SESSION_START.rawValue
        if isStart
            || (session.lastTs != .min
                && event.pointee.ts > session.lastTs.addingSaturated(configuration.sessionIdleTimeoutMs))
        {
            restart(event, session, isStart: isStart)
        }
        table.touch(session)
        return true
    }

    /// A new launch under the same id, or a session idle past the timeout: starts it afresh.
    @inline(never)
    private func restart(_ event: UnsafePointer<mw_event>, _ session: Session, isStart: Bool) {
        let lastSeq = session.lastSeq
        // The new app first: the old one still has this session, so it cannot be forgotten meanwhile.
        let app = isStart ? appState(named: event.pointee.app) : session.app
        join(app)
        leave(session.app)
        session.reset(app: app)
        session.lastSeq = lastSeq
        statistics.sessionsStarted += 1
    }

    /// Applies an event to its session and runs the rules that want it; returns whether the
    /// session ended (the caller releases it).
    private func applyAndJudge(_ sent: UnsafePointer<mw_event>, session: Session, observed: Int64) -> Bool {
        var event = sent
        // Judge by event time: never earlier than the session's latest.
        if session.lastTs != .min && event.pointee.ts < session.lastTs { event = clamped(event, session) }
        if event.pointee.locale.ptr == nil, session.locale != 0, event.pointee.type != MW_EVENT_SESSION_START.rawValue {
            event = withSessionLocale(event, session)
        }
        let ts = event.pointee.ts
        if session.startedTs == .min { session.startedTs = ts }
        let previousTs = session.lastTs
        session.lastTs = ts
        session.lastObserved = observed

        guard apply(event, to: session) else { return false }
        session.events += 1
        statistics.eventsJudged += 1

        let type = event.pointee.type
        let dispatches = session.withApp { $0.profile.dispatches(forType: Int(type)) }
        if !dispatches.isEmpty {
            judge(event, session: session, previousTs: previousTs, dispatches: dispatches)
        }
        if type == MW_EVENT_USER_ACTION.rawValue {
            session.lastUserActionTs = ts
            session.lastUserActionControl = event.pointee.control
        }
        journal.record(event, session: session, observed: observed)
        if type == MW_EVENT_SESSION_END.rawValue {
            statistics.sessionsEnded += 1
            return true
        }
        return false
    }

    /// An event earlier than its session's latest: counted, and judged from a copy at the
    /// session's latest time (the decoder's event stays as sent).
    @inline(never)
    private func clamped(_ event: UnsafePointer<mw_event>, _ session: Session) -> UnsafePointer<mw_event> {
        statistics.outOfOrder += 1
        let latest = session.lastTs
        let ts = event.pointee.ts
        output.emitDiagnostic(.outOfOrder, app: session.app.name, session: session.id.string) {
            "event time \(ts) is before the session's latest \(latest); judged at \(latest)"
        }
        clampedEvent.pointee = event.pointee
        clampedEvent.pointee.ts = latest
        return UnsafePointer(clampedEvent)
    }

    /// An event without a `locale` of its own in a session that has one: judged from a copy that
    /// carries the session's (the decoder's event stays as sent).
    private func withSessionLocale(_ event: UnsafePointer<mw_event>, _ session: Session) -> UnsafePointer<mw_event> {
        if event != UnsafePointer(clampedEvent) { clampedEvent.pointee = event.pointee }
        clampedEvent.pointee.locale = locales.tag(session.locale)
        return UnsafePointer(clampedEvent)
    }

    /// Releases the memory of sessions that received nothing for the idle timeout, by
    /// arrival (wall-clock `now`, ms), least recently active first, at most `limit`.
    /// Arrival, not event time: devices' clocks differ, and one device's clock must
    /// never release another's session. (Verdicts stay by event time: a session whose
    /// next event comes more than the timeout after its latest starts afresh either way.)
    @discardableResult
    public func releaseIdleSessions(now: Int64, limit: Int = 1000) -> Int {
        var released = 0
        while released < limit, let oldest = table.leastRecentlyActive,
            now > oldest.lastObserved.addingSaturated(configuration.sessionIdleTimeoutMs)
        {
            release(oldest)
            statistics.sessionsExpired += 1
            released += 1
        }
        return released
    }

    // MARK: - Sessions

    private func startSession(id: UnsafeRawBufferPointer, event: UnsafePointer<mw_event>) -> Session {
        if table.count >= configuration.maxSessions, let oldest = table.leastRecentlyActive {
            statistics.sessionsEvicted += 1
            output.emitDiagnostic(.sessionEvicted, app: oldest.app.name, session: oldest.id.string) {
                "live sessions reached max_sessions (\(self.configuration.maxSessions)); released the least recently active"
            }
            release(oldest)
        }
        let app = appState(named: event.pointee.app)
        join(app)
        let session = table.add(id: id, hash: Hashing.fnv1a(id), app: app)
        statistics.sessionsStarted += 1
        return session
    }

    func release(_ session: Session) {
        let app = session.app
        table.remove(session)
        leave(app)
    }

    @inline(__always)
    private func checkApp(_ event: UnsafePointer<mw_event>, _ session: Session) -> Bool {
        guard let sent = event.pointee.app.ptr else { return true }
        let app = session.record.pointee.view.app
        if app.len == event.pointee.app.len, app.len == 0 || memcmp(app.ptr!, sent, app.len) == 0 { return true }
        return checkOtherApp(event, session)
    }

    /// An event of a session the engine does not know that names no `app` (it never saw the
    /// session's start, or released the session): refused and counted, never judged under an app
    /// it did not name nor with the defaults (events.md).
    @inline(never)
    private func refuseUnknownSession(_ event: UnsafePointer<mw_event>, _ id: UnsafeRawBufferPointer) {
        statistics.eventsOfUnknownSessions += 1
        let type = event.pointee.type
        output.emitDiagnostic(.unknownSession, app: nil, session: String(decoding: id, as: UTF8.self)) {
            "a \(EventTypeName.of(type)) of a session this daemon does not know names no 'app'; refused: its session.start never came here or the session was released (send 'app' on every event)"
        }
    }

    /// `checkApp` for an event whose `app` is not the session's.
    @inline(never)
    private func checkOtherApp(_ event: UnsafePointer<mw_event>, _ session: Session) -> Bool {
        let app = UnsafeRawBufferPointer(start: event.pointee.app.ptr, count: event.pointee.app.len)
        // A session belongs to its app: a start of another app under a live id (two apps' test
        // suites both naming a session `run-1`) is refused, never a take-over.
        statistics.eventsRejected += 1
        let sent = String(decoding: app, as: UTF8.self)
        if event.pointee.type == MW_EVENT_SESSION_START.rawValue {
            output.emitDiagnostic(.badField, app: session.app.name, session: session.id.string) {
                "a session.start of app '\(sent)' under the id of a live session of '\(session.app.name)'; refused (session ids are one namespace: end the session, or use ids unique across apps)"
            }
            return false
        }
        output.emitDiagnostic(.badField, app: session.app.name, session: session.id.string) {
            "field 'app' is '\(sent)' but the session belongs to '\(session.app.name)'; event rejected"
        }
        return false
    }

    /// A session first seen at an event other than `session.start` whose `seq` is above 1:
    /// the events before it (its start among them) never arrived here. Counted apart from
    /// `eventsLost`, since they may also have arrived before the session was released, evicted,
    /// or judged by a daemon that stopped without its snapshot.
    private func countMissingBeforeFirst(_ event: UnsafePointer<mw_event>, _ session: Session) {
        guard event.pointee.seq > 1, event.pointee.type != MW_EVENT_SESSION_START.rawValue else { return }
        let missing = event.pointee.seq - 1
        statistics.eventsMissingBeforeFirst.addSaturated(UInt64(missing))
        let seq = event.pointee.seq
        output.emitDiagnostic(.gap, app: session.app.name, session: session.id.string) {
            "the session's first event here has seq \(seq) and no session.start came: \(missing) event(s) before it missing"
        }
    }

    @inline(__always)
    private func checkSequence(_ event: UnsafePointer<mw_event>, _ session: Session) -> Bool {
        let seq = event.pointee.seq
        let last = session.lastSeq
        // The common case: no seq, or the next one.
        if seq <= 0 { return true }
        if seq == last &+ 1 {
            session.lastSeq = seq
            return true
        }
        return checkSequenceGap(seq, session)
    }

    /// `checkSequence` for a duplicate or a gap.
    @inline(never)
    private func checkSequenceGap(_ seq: Int64, _ session: Session) -> Bool {
        if seq <= session.lastSeq {
            statistics.duplicates += 1
            let last = session.lastSeq
            output.emitDiagnostic(.duplicate, app: session.app.name, session: session.id.string) {
                "seq \(seq) is not above the last seen \(last); dropped as a duplicate"
            }
            return false
        }
        if session.lastSeq > 0 && seq.subtractingSaturated(session.lastSeq) > 1 {
            let lost = seq.subtractingSaturated(session.lastSeq) - 1
            statistics.eventsLost.addSaturated(UInt64(lost))
            let last = session.lastSeq
            output.emitDiagnostic(.gap, app: session.app.name, session: session.id.string) {
                "seq jumped from \(last) to \(seq): \(lost) event(s) lost"
            }
        }
        session.lastSeq = seq
        return true
    }
}

/// Not `Sendable`: confined to the ingest thread (or `check`'s one thread).
@available(*, unavailable)
extension Engine: Sendable {}
