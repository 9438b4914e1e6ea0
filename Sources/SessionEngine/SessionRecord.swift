import ModalwatchABI

/// One session's state as plain values, kept in place in the session table's arena (one
/// buffer of records reached by slot) and reached through a `Session` handle.
///
/// A record whose session ended stays in its slot with its memory (the id bytes, the
/// presentation arena, the stack, the tasks, the rules' maps and windows): the next session
/// put in that slot reuses it, so a table that has its size allocates nothing per session.
/// What it holds beyond its slot comes from the table's `SpillPool` and goes back there
/// (`Session.releaseSpill()`); only the id bytes are its own.
/// Non-copyable: it owns that memory.
struct SessionRecord: ~Copyable {
    /// The session as the rules see it (`mw_session`), kept up to date in place as events
    /// apply, so a rule call is handed this very value: its id (the id bytes, in a buffer of
    /// `idCapacity` kept across reuse), app, device, size class, foreground state, modal
    /// depths, stack count, times, task count and figures. The per-event parts (`stack`,
    /// `previous_ts`, `dismissed`, `dismissed_title`) are set as a rule call is made.
    var view = mw_session()
    var idCapacity: Int32 = 0
    /// Hash of the id, for the session table.
    var idHash: UInt64 = 0
    /// The neighbours in the table's least-recently-active list (live), or the next free
    /// slot (`next`, free); -1 for none.
    var previous: Int32 = -1
    var next: Int32 = -1
    /// Whether a live session holds the record.
    var live = false
    /// The presentation stack, bottom first: `view.stack_count` entries in the slot's
    /// `SessionInline` until they outgrow it, then in `stackHeap` (kept across reuse).
    var stackCapacity = Int32(SessionInline.stackEntries)
    /// The app it belongs to: owned by the engine's `apps`, which keeps an app while it has a
    /// live session, so held unretained.
    var app: Unmanaged<AppState>?
    var stackHeap: UnsafeMutablePointer<StackEntry>?
    /// The stack entries' title lengths, ids and titles: in the slot's `SessionInline` until
    /// they outgrow it, then in `arenaHeap` (kept across reuse).
    var arenaHeap: UnsafeMutablePointer<UInt8>?
    var idArenaCapacity = Int32(SessionInline.arenaBytes)
    var idArenaUsed: Int32 = 0

    var lastSeq: Int64 = 0
    /// The session's language: the number of its `session.start`'s `locale` in the engine's
    /// `LocaleTable`, 0 when undetermined.
    var locale: UInt16 = 0
    /// The running tasks' id hashes (`view.tasks_running` of them), in a block of the pool.
    var tasks: UnsafeMutablePointer<UInt64>?
    var taskCapacity: Int32 = 0
    var violations: UInt64 = 0
    /// Wall-clock ms of the last event, for `sessions` and idle release.
    var lastObserved: Int64 = 0

    /// Rule counters (MW_SCOPE_SESSION), keyed by rule seed and key.
    var counterMap = IntegerMap()
    /// Rule windows, keyed by rule seed and key: event times, oldest first.
    var windowRings = WindowRings()
    /// The firing discipline's marks, out of line (only a report needs them): taken from the
    /// pool at the session's first, kept across reuse.
    var marks: UnsafeMutablePointer<FiringMarks>?

    /// An empty record.
    init() {}

    /// The id bytes' buffer (`view.id`).
    var idStart: UnsafeMutablePointer<UInt8>? {
        UnsafeMutableRawPointer(mutating: view.id.ptr)?.assumingMemoryBound(to: UInt8.self)
    }

    /// Puts the session in `app` (held unretained, its name in the view).
    mutating func setApp(_ app: AppState) {
        self.app = .passUnretained(app)
        view.app = app.bytes.str
    }

    deinit {
        idStart?.deallocate()
    }

    /// Makes the record the state of a new session with id `id` in `app`, keeping its memory.
    mutating func start(id: UnsafeRawBufferPointer, hash: UInt64, app: AppState) {
        if id.count > Int(idCapacity) || idStart == nil {
            idStart?.deallocate()
            idCapacity = Int32(max(id.count, 16))
            view.id.ptr = UnsafePointer(UnsafeMutablePointer<CChar>.allocate(capacity: Int(idCapacity)))
        }
        if let source = id.baseAddress, id.count > 0 {
            UnsafeMutableRawPointer(idStart!).copyMemory(from: source, byteCount: id.count)
        }
        view.id.len = id.count
        idHash = hash
        live = true
        reset(app: app)
    }

    /// Forgets everything but the id: a new launch under the same id, or an idle restart.
    mutating func reset(app: AppState) {
        setApp(app)
        view.device = Int32(MW_DEVICE_PHONE.rawValue)
        view.size_class = Int32(MW_SIZE_COMPACT.rawValue)
        view.foreground = 1
        view.stack_count = 0
        idArenaUsed = 0
        view.modal_depth = 0
        view.max_modal_depth = 0
        view.started_ts = .min
        view.last_ts = .min
        view.previous_ts = .min
        lastSeq = 0
        locale = 0
        view.last_user_action_ts = .min
        view.last_user_action_control = MW_ABSENT
        view.tasks_running = 0
        view.last_task_finished_ts = .min
        view.last_task_failed_ts = .min
        view.events = 0
        view.alerts_presented = 0
        view.presentations = 0
        violations = 0
        lastObserved = 0
        counterMap.removeAll()
        windowRings.removeAll()
        if let marks {
            marks.pointee.fired.removeAll()
            marks.pointee.quiet.removeAll()
        }
    }

}
