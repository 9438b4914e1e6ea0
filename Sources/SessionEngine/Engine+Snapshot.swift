import ByteBasics
import ModalwatchABI

/// Saving and restoring the engine's state across a restart.
extension Engine {
    /// The state of every live session and app.
    public func snapshot() -> EngineSnapshot {
        EngineSnapshot(
            version: EngineSnapshot.currentVersion,
            apps: savedApps(),
            sessions: table.allSessions().reversed().map(saved)
        )
    }

    /// The rule state of the apps worth keeping: apps least recently seen first, then those with
    /// live sessions; an app without a live session that holds no rule state is left out (it is
    /// as good as forgotten).
    func savedApps() -> [EngineSnapshot.AppStateSnapshot] {
        var apps: [EngineSnapshot.AppStateSnapshot] = []
        idleApps.forEach { app in
            if !app.holdsNoRuleState { apps.append(Self.saved(app)) }
        }
        for app in self.apps.values where app.liveSessions > 0 { apps.append(Self.saved(app)) }
        return apps
    }

    /// One live session's state, as a value that may cross to another thread.
    func saved(_ session: Session) -> EngineSnapshot.SessionState {
        EngineSnapshot.SessionState(
            id: Array(session.id.buffer),
            app: session.app.name,
            device: session.device,
            sizeClass: session.sizeClass,
            foreground: session.foreground,
            stack: session.stack.map { entry in
                EngineSnapshot.Entry(
                    kind: entry.kind,
                    id: Array(session.idBytes(of: entry)),
                    ts: entry.ts,
                    style: entry.style,
                    transition: entry.transition,
                    sizeClass: entry.sizeClass,
                    navDepth: entry.navDepth,
                    buttonCount: entry.buttonCount,
                    cancelIndex: entry.cancelIndex,
                    destructiveIndex: entry.destructiveIndex,
                    inPopover: entry.inPopover,
                    title: entry.titleLength == 0 ? nil : Array(session.titleBytes(of: entry))
                )
            },
            maxModalDepth: session.maxModalDepth,
            startedTs: session.startedTs,
            lastTs: session.lastTs,
            lastSeq: session.lastSeq,
            lastUserActionTs: session.lastUserActionTs,
            lastUserActionControl: session.lastUserActionControl,
            runningTasks: session.runningTasks,
            lastTaskFinishedTs: session.lastTaskFinishedTs,
            lastTaskFailedTs: session.lastTaskFailedTs,
            events: session.events,
            alertsPresented: session.alertsPresented,
            presentations: session.presentations,
            violations: session.violations,
            lastObserved: session.lastObserved,
            counters: session.counters,
            windows: session.windows,
            fired: Array(session.fired),
            quietUntil: session.quietUntil,
            locale: localeBytes(session.locale)
        )
    }

    /// The bytes of the tag numbered `number` in `locales`, nil for none.
    private func localeBytes(_ number: UInt16) -> [UInt8]? {
        let tag = locales.tag(number)
        guard let pointer = tag.ptr else { return nil }
        return Array(UnsafeRawBufferPointer(start: pointer, count: tag.len))
    }

    /// Puts a snapshot's sessions and apps back; the engine must not have seen an event yet.
    /// Returns how many sessions were restored (at most `max_sessions`, the most recent).
    @discardableResult
    public func restore(_ snapshot: EngineSnapshot) -> Int {
        guard snapshot.version == EngineSnapshot.currentVersion else { return 0 }
        let sessions = snapshot.sessions.suffix(configuration.maxSessions)
        // Apps without a restored session: the most recently seen that fit within max_apps.
        let liveApps = Set(sessions.map(\.app))
        let idle = snapshot.apps.filter { !liveApps.contains($0.name) }
        let idleKept = idle.suffix(max(0, configuration.maxApps - liveApps.count))
        statistics.appsEvicted += UInt64(idle.count - idleKept.count)
        for saved in idleKept + snapshot.apps.filter({ liveApps.contains($0.name) }) {
            let app = appState(named: saved.name)
            app.counters = bounded(saved.counters)
            app.fired = Set(bounded(saved.fired))
        }
        var restored = 0
        // A session saved without its app (`-`) is not restored: it would be judged with the defaults.
        for saved in sessions where saved.app != AppState.unnamed {
            let id = saved.id
            let hash = id.withUnsafeBytes { Hashing.fnv1a($0) }
            guard id.withUnsafeBytes({ table.find($0) }) == nil else { continue }
            let app = appState(named: saved.app)
            join(app)
            let session = id.withUnsafeBytes { table.add(id: $0, hash: hash, app: app) }
            session.device = saved.device
            if let tag = saved.locale {
                session.locale = tag.withUnsafeBytes { bytes in
                    locales.number(
                        of: mw_str(ptr: bytes.baseAddress?.assumingMemoryBound(to: CChar.self), len: bytes.count)
                    )
                }
            }
            session.sizeClass = saved.sizeClass
            session.foreground = saved.foreground
            for entry in saved.stack {
                var stackEntry = StackEntry(kind: entry.kind, ts: entry.ts)
                stackEntry.style = entry.style
                stackEntry.transition = entry.transition
                stackEntry.sizeClass = entry.sizeClass
                stackEntry.navDepth = entry.navDepth
                stackEntry.buttonCount = entry.buttonCount
                stackEntry.cancelIndex = entry.cancelIndex
                stackEntry.destructiveIndex = entry.destructiveIndex
                stackEntry.inPopover = entry.inPopover
                let title = entry.title ?? []
                entry.id.withUnsafeBytes { bytes in
                    title.withUnsafeBytes { titleBytes in
                        session.push(
                            stackEntry,
                            id: mw_str(ptr: bytes.baseAddress?.assumingMemoryBound(to: CChar.self), len: bytes.count),
                            title: mw_str(
                                ptr: titleBytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                                len: titleBytes.count
                            )
                        )
                    }
                }
            }
            session.maxModalDepth = max(saved.maxModalDepth, session.modalDepth)
            session.startedTs = saved.startedTs
            session.lastTs = saved.lastTs
            session.lastSeq = EventSequence.clamped(saved.lastSeq)
            session.lastUserActionTs = saved.lastUserActionTs
            session.lastUserActionControl = saved.lastUserActionControl
            session.runningTasks = saved.runningTasks
            session.lastTaskFinishedTs = saved.lastTaskFinishedTs
            session.lastTaskFailedTs = saved.lastTaskFailedTs
            session.events = saved.events
            session.alertsPresented = saved.alertsPresented
            session.presentations = saved.presentations
            session.violations = saved.violations
            session.lastObserved = saved.lastObserved
            session.counters = saved.counters
            session.windows = saved.windows
            session.fired = Set(saved.fired)
            session.quietUntil = saved.quietUntil
            restored += 1
        }
        return restored
    }

    private static func saved(_ app: AppState) -> EngineSnapshot.AppStateSnapshot {
        EngineSnapshot.AppStateSnapshot(name: app.name, counters: app.counters, fired: Array(app.fired))
    }

    /// `values`, or the `max_app_values` of them with the lowest keys (the rest counted as refused).
    private func bounded(_ values: [UInt64: Int64]) -> [UInt64: Int64] {
        guard values.count > configuration.maxAppValues else { return values }
        let kept = Set(bounded(Array(values.keys)))
        return values.filter { kept.contains($0.key) }
    }

    /// `keys`, or the `max_app_values` lowest of them (the rest counted as refused).
    private func bounded(_ keys: [UInt64]) -> [UInt64] {
        guard keys.count > configuration.maxAppValues else { return keys }
        statistics.appValuesRefused += UInt64(keys.count - configuration.maxAppValues)
        return Array(keys.sorted().prefix(configuration.maxAppValues))
    }
}
