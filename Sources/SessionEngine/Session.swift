import Glibc
import ModalwatchABI

/// One app session's state: the presentation stack, counts, recent actions and
/// tasks, and the rules' per-session state. Owned by one engine on one thread.
final class Session {
    /// The session id bytes (stable address).
    let id: StableBytes
    /// Hash of the id, for the session table.
    let idHash: UInt64
    /// Slot in the session table.
    var slot: Int32 = -1
    /// The app it belongs to: owned by the engine's `apps`, which never lets one go, so
    /// held unretained (no reference counting on every `session.app`).
    var app: AppState {
        get { appReference.takeUnretainedValue() }
        set { appReference = .passUnretained(newValue) }
    }
    private var appReference: Unmanaged<AppState>

    /// Runs `body` on the app without retaining it (the engine's `apps` holds it).
    @inline(__always)
    func withApp<Result>(_ body: (AppState) -> Result) -> Result {
        appReference._withUnsafeGuaranteedRef(body)
    }

    var device: Int32 = Int32(MW_DEVICE_PHONE.rawValue)
    var sizeClass: Int32 = Int32(MW_SIZE_COMPACT.rawValue)
    var foreground = true
    var stack: [StackEntry] = []
    var modalDepth: Int32 = 0
    var maxModalDepth: Int32 = 0
    private(set) var idArena: UnsafeMutablePointer<UInt8>?
    private var idArenaCapacity = 0
    private var idArenaUsed = 0

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

    /// `counterMap` as a dictionary (snapshots).
    var counters: [UInt64: Int64] {
        get { counterMap.dictionary }
        set { counterMap.replace(with: newValue) }
    }
    /// `windowRings` as a dictionary (snapshots).
    var windows: [UInt64: [Int64]] {
        get { windowRings.dictionary }
        set { windowRings.replace(with: newValue) }
    }
    /// `firedKeys` as a set (snapshots).
    var fired: Set<UInt64> {
        get { firedKeys.keySet }
        set { firedKeys.replace(withKeys: newValue) }
    }
    /// `quietMap` as a dictionary (snapshots).
    var quietUntil: [UInt64: Int64] {
        get { quietMap.dictionary }
        set { quietMap.replace(with: newValue) }
    }

    /// `id`'s bytes, kept here too so that a table lookup compares them without loading `id` first.
    private let idStart: UnsafeMutablePointer<UInt8>
    private let idCount: Int

    init(id: StableBytes, idHash: UInt64, app: AppState) {
        self.id = id
        self.idHash = idHash
        appReference = .passUnretained(app)
        idStart = id.pointer
        idCount = id.count
    }

    /// The id bytes, read from the session itself (not through `id`).
    var idBuffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: idStart, count: idCount) }

    /// The id bytes as an `mw_str`, read from the session itself.
    var idStr: mw_str { mw_str(ptr: UnsafeRawPointer(idStart).assumingMemoryBound(to: CChar.self), len: idCount) }

    /// Whether the session's id is `other`.
    @inline(__always)
    func idEquals(_ other: UnsafeRawBufferPointer) -> Bool {
        StableBytes.equal(idStart, idCount, other)
    }

    deinit { idArena?.deallocate() }

    /// Forgets everything but the id: a new launch under the same id, or an idle restart.
    func reset(app: AppState) {
        self.app = app
        device = Int32(MW_DEVICE_PHONE.rawValue)
        sizeClass = Int32(MW_SIZE_COMPACT.rawValue)
        foreground = true
        stack.removeAll(keepingCapacity: true)
        idArenaUsed = 0
        modalDepth = 0
        maxModalDepth = 0
        startedTs = .min
        lastTs = .min
        lastSeq = 0
        lastUserActionTs = .min
        lastUserActionControl = MW_ABSENT
        runningTasks.removeAll()
        lastTaskFinishedTs = .min
        lastTaskFailedTs = .min
        events = 0
        alertsPresented = 0
        presentations = 0
        violations = 0
        counterMap.removeAll()
        windowRings.removeAll()
        firedKeys.removeAll()
        quietMap.removeAll()
    }

    /// The most bytes of a presentation's title the stack keeps, for the rules that judge its
    /// dismissal (cut at a character boundary).
    static let maxTitleBytes = 320

    /// Pushes a presentation whose id is `id` and title `title` (absent: none).
    func push(_ entry: StackEntry, id: mw_str, title: mw_str = mw_str(ptr: nil, len: 0)) {
        var entry = entry
        let length = id.len
        var titleLength = title.ptr == nil ? 0 : min(title.len, Self.maxTitleBytes)
        if titleLength < title.len, let bytes = UnsafeRawPointer(title.ptr) {
            // Cut before a continuation byte: never inside a character.
            while titleLength > 0, bytes.load(fromByteOffset: titleLength, as: UInt8.self) & 0xC0 == 0x80 { titleLength -= 1 }
        }
        if idArenaUsed + length + titleLength > idArenaCapacity {
            let capacity = max(64, (idArenaUsed + length + titleLength) * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            if let old = idArena {
                grown.update(from: old, count: idArenaUsed)
                old.deallocate()
            }
            idArena = grown
            idArenaCapacity = capacity
        }
        if length > 0 {
            UnsafeMutableRawPointer(idArena! + idArenaUsed).copyMemory(from: id.ptr!, byteCount: length)
        }
        if titleLength > 0 {
            UnsafeMutableRawPointer(idArena! + idArenaUsed + length).copyMemory(from: title.ptr!, byteCount: titleLength)
        }
        entry.idOffset = Int32(idArenaUsed)
        entry.idLength = Int32(length)
        entry.titleLength = Int32(titleLength)
        idArenaUsed += length + titleLength
        stack.append(entry)
        if entry.kind == MW_KIND_MODAL.rawValue {
            modalDepth += 1
            maxModalDepth = max(maxModalDepth, modalDepth)
        }
    }

    /// The index of the topmost entry with this id, if any.
    func indexOf(id: mw_str, hash: UInt64) -> Int? {
        guard let arena = idArena else { return nil }
        var i = stack.count - 1
        while i >= 0 {
            let entry = stack[i]
            if entry.idHash == hash, Int(entry.idLength) == id.len,
               id.len == 0 || memcmp(arena + Int(entry.idOffset), id.ptr!, id.len) == 0 {
                return i
            }
            i -= 1
        }
        return nil
    }

    /// Removes the entry at `index` and everything presented above it.
    func pop(downTo index: Int) {
        stack.removeSubrange(index...)
        idArenaUsed = stack.last.map { Int($0.arenaEnd) } ?? 0
        modalDepth = Int32(stack.lazy.filter { $0.kind == MW_KIND_MODAL.rawValue }.count)
    }

    /// Forgets the bottom entry (a stack at its depth limit), keeping the rest.
    func removeBottom() {
        guard let bottom = stack.first else { return }
        let shift = Int(bottom.arenaEnd)
        if let arena = idArena, idArenaUsed > shift { memmove(arena, arena + shift, idArenaUsed - shift) }
        idArenaUsed -= shift
        stack.removeFirst()
        for i in stack.indices { stack[i].idOffset -= Int32(shift) }
        modalDepth = Int32(stack.lazy.filter { $0.kind == MW_KIND_MODAL.rawValue }.count)
    }

    /// The title bytes a stack entry keeps (empty when it had none).
    func titleBytes(of entry: StackEntry) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(
            start: idArena.map { UnsafeRawPointer($0 + Int(entry.idOffset + entry.idLength)) }, count: Int(entry.titleLength))
    }

    /// The id bytes of a stack entry.
    func idBytes(of entry: StackEntry) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: idArena.map { UnsafeRawPointer($0 + Int(entry.idOffset)) }, count: Int(entry.idLength))
    }
}
