import ModalwatchABI

/// One session's state as plain values, kept in place in the session table's arena (one
/// buffer of records reached by slot) and reached through a `Session` handle.
///
/// A record whose session ended stays in its slot with its memory (the id bytes, the
/// presentation arena, the stack, the tasks, the rules' maps and windows): the next session
/// put in that slot reuses it, so a table that has its size allocates nothing per session.
/// Non-copyable: it owns that memory.
struct SessionRecord: ~Copyable {
    /// The id bytes (`idCount` of them) in a buffer of `idCapacity`, kept across reuse.
    var idStart: UnsafeMutablePointer<UInt8>?
    var idCapacity = 0
    var idCount = 0
    /// Hash of the id, for the session table.
    var idHash: UInt64 = 0
    /// The neighbours in the table's least-recently-active list (live), or the next free
    /// slot (`next`, free); -1 for none.
    var previous: Int32 = -1
    var next: Int32 = -1
    /// Whether a live session holds the record.
    var live = false
    /// The app it belongs to: owned by the engine's `apps`, which keeps an app while it has a
    /// live session, so held unretained.
    var app: Unmanaged<AppState>?

    var device: Int32 = Int32(MW_DEVICE_PHONE.rawValue)
    var sizeClass: Int32 = Int32(MW_SIZE_COMPACT.rawValue)
    var foreground = true
    /// The presentation stack, bottom first: `stackCount` entries in the slot's
    /// `SessionInline` until they outgrow it, then in `stackHeap` (kept across reuse).
    var stackHeap: UnsafeMutablePointer<StackEntry>?
    var stackCapacity = SessionInline.stackEntries
    var stackCount = 0
    var modalDepth: Int32 = 0
    var maxModalDepth: Int32 = 0
    /// The stack entries' id and title bytes: in the slot's `SessionInline` until they
    /// outgrow it, then in `arenaHeap` (kept across reuse).
    var arenaHeap: UnsafeMutablePointer<UInt8>?
    var idArenaCapacity = SessionInline.arenaBytes
    var idArenaUsed = 0

    var startedTs: Int64 = .min
    var lastTs: Int64 = .min
    var lastSeq: Int64 = 0
    var lastUserActionTs: Int64 = .min
    var lastUserActionControl: Int32 = MW_ABSENT
    var runningTasks: [UInt64] = []
    var lastTaskFinishedTs: Int64 = .min
    var lastTaskFailedTs: Int64 = .min
    var events: UInt64 = 0
    var alertsPresented: UInt64 = 0
    var presentations: UInt64 = 0
    var violations: UInt64 = 0
    /// Wall-clock ms of the last event, for `sessions` and idle release.
    var lastObserved: Int64 = 0

    /// Rule counters (MW_SCOPE_SESSION), keyed by rule seed and key.
    var counterMap = IntegerMap()
    /// Rule windows, keyed by rule seed and key: event times, oldest first.
    var windowRings = WindowRings()
    /// Firings already made for once-per-subject / key / session rules.
    var firedKeys = IntegerMap()
    /// For once-per-window rules: the event time until which each rule (by seed) stays quiet.
    var quietMap = IntegerMap()

    /// An empty record.
    init() {}

    deinit {
        idStart?.deallocate()
        stackHeap?.deallocate()
        arenaHeap?.deallocate()
    }

    /// Makes the record the state of a new session with id `id` in `app`, keeping its memory.
    mutating func start(id: UnsafeRawBufferPointer, hash: UInt64, app: AppState) {
        if id.count > idCapacity || idStart == nil {
            idStart?.deallocate()
            idCapacity = max(id.count, 16)
            idStart = .allocate(capacity: idCapacity)
        }
        if let source = id.baseAddress, id.count > 0 {
            UnsafeMutableRawPointer(idStart!).copyMemory(from: source, byteCount: id.count)
        }
        idCount = id.count
        idHash = hash
        live = true
        reset(app: app)
    }

    /// Forgets everything but the id: a new launch under the same id, or an idle restart.
    mutating func reset(app: AppState) {
        self.app = .passUnretained(app)
        device = Int32(MW_DEVICE_PHONE.rawValue)
        sizeClass = Int32(MW_SIZE_COMPACT.rawValue)
        foreground = true
        stackCount = 0
        idArenaUsed = 0
        modalDepth = 0
        maxModalDepth = 0
        startedTs = .min
        lastTs = .min
        lastSeq = 0
        lastUserActionTs = .min
        lastUserActionControl = MW_ABSENT
        runningTasks.removeAll(keepingCapacity: true)
        lastTaskFinishedTs = .min
        lastTaskFailedTs = .min
        events = 0
        alertsPresented = 0
        presentations = 0
        violations = 0
        lastObserved = 0
        counterMap.removeAll()
        windowRings.removeAll()
        firedKeys.removeAll()
        quietMap.removeAll()
    }

}
