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
    var stackViews: UnsafeMutablePointer<mw_presentation>
    var stackViewCapacity = 16
    let dismissedView = UnsafeMutablePointer<mw_presentation>.allocate(capacity: 1)
    let dismissedID = UnsafeMutablePointer<UInt8>.allocate(capacity: Engine.maxDismissedIDBytes)
    static let maxDismissedIDBytes = 1024
    /// The title of the presentation the current dismissal removed (`mw_session.dismissed_title`).
    let dismissedTitle = UnsafeMutablePointer<UInt8>.allocate(capacity: Session.maxTitleBytes)
    /// Its length in bytes; 0 when it had none.
    var dismissedTitleLength = 0
    /// The recent events of every session, for `modalwatch session ID` (a fixed ring).
    public let journal = SessionJournal()
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
        stackViews = .allocate(capacity: stackViewCapacity)
        heldByRuleCount = max(catalog.rules.count, 1)
        heldByRule = .allocate(capacity: heldByRuleCount)
        heldByRule.initialize(repeating: 0, count: heldByRuleCount)
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
        stackViews.deallocate()
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

    /// Violations held back by the per-app rate limit, for the apps that held back most
    /// (at most ten, for `status`).
    public var violationsRateLimitedByApp: [String: UInt64] { heldBackApps.byApp }

    /// The profile in force for `app` (its edition, rules and parameters).
    public func profile(forApp app: String?) -> RuleProfile {
        guard let app else { return defaultProfile }
        return apps[app]?.profile ?? (configuration.apps[app] == nil
            ? defaultProfile
            : RuleProfile(catalog: catalog, configuration: configuration, app: app))
    }

    /// Puts a new configuration in force; sessions keep their state.
    public func reconfigure(_ configuration: EngineConfiguration) {
        self.configuration = configuration
        defaultProfile = RuleProfile(catalog: catalog, configuration: configuration, app: nil)
        for (name, app) in apps {
            app.profile = configuration.apps[name] == nil
                ? defaultProfile
                : RuleProfile(catalog: catalog, configuration: configuration, app: name)
        }
        forgetAppsPastBound(reserving: 0)
    }

    /// Judges one decoded event. `observed` is the wall clock (ms) for the violations' `observed`.
    public func process(_ eventPointer: UnsafePointer<mw_event>, observed: Int64) {
        statistics.eventsAccepted += 1
        self.observed = observed
        var event = eventPointer.pointee
        guard event.type != MW_EVENT_UNKNOWN.rawValue, event.type < MW_EVENT_TYPE_COUNT.rawValue else {
            statistics.eventsUnknownType += 1
            return
        }
        let sessionID = UnsafeRawBufferPointer(start: event.session.ptr, count: event.session.len)
        if let session = table.find(sessionID) {
            guard resume(&event, session) else { return }
            if applyAndJudge(&event, session: session, observed: observed) { release(session) }
        } else {
            let session = startSession(id: sessionID, event: &event)
            countMissingBeforeFirst(&event, session)
            _ = checkSequence(&event, session)
            if applyAndJudge(&event, session: session, observed: observed) { release(session) }
        }
    }

    /// An event of a live session: whether it passes the checks; restarts the session if
    /// it is a new launch or comes after the idle timeout.
    private func resume(_ event: inout mw_event, _ session: Session) -> Bool {
        if !checkApp(&event, session) { return false }
        if !checkSequence(&event, session) { return false }
        let isStart = event.type == MW_EVENT_SESSION_START.rawValue
        if isStart || (session.lastTs != .min && event.ts > session.lastTs.addingSaturated(configuration.sessionIdleTimeoutMs)) {
            // A new launch under the same id, or a session idle past the timeout: start afresh.
            let lastSeq = session.lastSeq
            // The new app first: the old one still has this session, so it cannot be forgotten meanwhile.
            let app = isStart ? appState(named: event.app) : session.app
            join(app)
            leave(session.app)
            session.reset(app: app)
            session.lastSeq = lastSeq
            statistics.sessionsStarted += 1
        }
        table.touch(session)
        return true
    }

    /// Applies an event to its session and runs the rules that want it; returns whether the
    /// session ended (the caller releases it).
    private func applyAndJudge(_ event: inout mw_event, session: Session, observed: Int64) -> Bool {
        // Judge by event time: never earlier than the session's latest.
        if session.lastTs != .min && event.ts < session.lastTs {
            statistics.outOfOrder += 1
            let latest = session.lastTs
            let ts = event.ts
            output.emitDiagnostic(.outOfOrder, app: session.app.name, session: session.id.string) {
                "event time \(ts) is before the session's latest \(latest); judged at \(latest)"
            }
            event.ts = latest
        }
        if session.startedTs == .min { session.startedTs = event.ts }
        let previousTs = session.lastTs
        session.lastTs = event.ts
        session.lastObserved = observed

        guard apply(&event, to: session) else { return false }
        session.events += 1
        statistics.eventsJudged += 1

        let dispatches = session.app.profile.dispatches(forType: Int(event.type))
        if !dispatches.isEmpty {
            judge(&event, session: session, previousTs: previousTs, dispatches: dispatches)
        }
        if event.type == MW_EVENT_USER_ACTION.rawValue {
            session.lastUserActionTs = event.ts
            session.lastUserActionControl = event.control
        }
        journal.record(&event, session: session, observed: observed)
        if event.type == MW_EVENT_SESSION_END.rawValue {
            statistics.sessionsEnded += 1
            return true
        }
        return false
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
              now > oldest.lastObserved.addingSaturated(configuration.sessionIdleTimeoutMs) {
            release(oldest)
            statistics.sessionsExpired += 1
            released += 1
        }
        return released
    }

    // MARK: - Sessions

    private func startSession(id: UnsafeRawBufferPointer, event: inout mw_event) -> Session {
        if table.count >= configuration.maxSessions, let oldest = table.leastRecentlyActive {
            statistics.sessionsEvicted += 1
            output.emitDiagnostic(.sessionEvicted, app: oldest.app.name, session: oldest.id.string) {
                "live sessions reached max_sessions (\(self.configuration.maxSessions)); released the least recently active"
            }
            release(oldest)
        }
        let app = appState(named: event.app)
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

    // `inout` only so that the large C struct is not copied for the call; it is not changed.
    private func checkApp(_ event: inout mw_event, _ session: Session) -> Bool {
        guard event.app.ptr != nil else { return true }
        let app = UnsafeRawBufferPointer(start: event.app.ptr, count: event.app.len)
        if session.withApp({ $0.bytes.equals(app) }) || event.type == MW_EVENT_SESSION_START.rawValue { return true }
        if session.app.name == "-" {
            // The session had not said its app; it says so now.
            let app = appState(named: event.app)
            join(app)
            leave(session.app)
            session.app = app
            return true
        }
        statistics.eventsRejected += 1
        let sent = String(decoding: app, as: UTF8.self)
        output.emitDiagnostic(.badField, app: session.app.name, session: session.id.string) {
            "field 'app' is '\(sent)' but the session belongs to '\(session.app.name)'; event rejected"
        }
        return false
    }

    /// A session first seen at an event other than `session.start` whose `seq` is above 1:
    /// the events before it (its start among them) never arrived here. Counted apart from
    /// `eventsLost`, since they may also have arrived before the session was released, evicted,
    /// or judged by a daemon that stopped without its snapshot.
    private func countMissingBeforeFirst(_ event: inout mw_event, _ session: Session) {
        guard event.seq > 1, event.type != MW_EVENT_SESSION_START.rawValue else { return }
        let missing = event.seq - 1
        statistics.eventsMissingBeforeFirst += UInt64(missing)
        let seq = event.seq
        output.emitDiagnostic(.gap, app: session.app.name, session: session.id.string) {
            "the session's first event here has seq \(seq) and no session.start came: \(missing) event(s) before it missing"
        }
    }

    private func checkSequence(_ event: inout mw_event, _ session: Session) -> Bool {
        guard event.seq > 0 else { return true }
        if event.seq <= session.lastSeq {
            statistics.duplicates += 1
            let last = session.lastSeq
            output.emitDiagnostic(.duplicate, app: session.app.name, session: session.id.string) {
                "seq \(event.seq) is not above the last seen \(last); dropped as a duplicate"
            }
            return false
        }
        if session.lastSeq > 0 && event.seq > session.lastSeq + 1 {
            let lost = event.seq - session.lastSeq - 1
            statistics.eventsLost += UInt64(lost)
            let last = session.lastSeq
            output.emitDiagnostic(.gap, app: session.app.name, session: session.id.string) {
                "seq jumped from \(last) to \(event.seq): \(lost) event(s) lost"
            }
        }
        session.lastSeq = event.seq
        return true
    }
}

/// Not `Sendable`: confined to the ingest thread (or `check`'s one thread).
@available(*, unavailable)
extension Engine: Sendable {}
