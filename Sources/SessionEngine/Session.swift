import Glibc
import ModalwatchABI

/// One live session: a handle to its `SessionRecord` in the session table's arena. A plain
/// pointer, so reaching a session costs no reference counting. A handle is valid until the
/// table adds a session (which may move the arena) or removes this one.
struct Session: Equatable {
    /// The session's record.
    let record: UnsafeMutablePointer<SessionRecord>

    /// The id bytes, in the record (they move with it).
    struct IDBytes {
        let pointer: UnsafeMutablePointer<UInt8>?
        let count: Int

        /// The bytes as a raw buffer.
        var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: count) }

        /// The bytes as a String.
        var string: String { String(decoding: buffer, as: UTF8.self) }
    }

    /// The session id bytes.
    var id: IDBytes { IDBytes(pointer: record.pointee.idStart, count: record.pointee.idCount) }
    /// Hash of the id, for the session table.
    var idHash: UInt64 { record.pointee.idHash }

    /// The app it belongs to (the engine's `apps` holds it; see `SessionRecord.app`).
    var app: AppState {
        get { record.pointee.app!.takeUnretainedValue() }
        nonmutating set { record.pointee.app = .passUnretained(newValue) }
    }

    /// Runs `body` on the app without retaining it (the engine's `apps` holds it).
    @inline(__always)
    func withApp<Result>(_ body: (AppState) -> Result) -> Result {
        record.pointee.app!._withUnsafeGuaranteedRef(body)
    }

    var device: Int32 {
        get { record.pointee.device }
        nonmutating set { record.pointee.device = newValue }
    }
    var sizeClass: Int32 {
        get { record.pointee.sizeClass }
        nonmutating set { record.pointee.sizeClass = newValue }
    }
    var foreground: Bool {
        get { record.pointee.foreground }
        nonmutating set { record.pointee.foreground = newValue }
    }
    /// The presentation stack, bottom first (valid while the handle is).
    var stack: UnsafeMutableBufferPointer<StackEntry> {
        UnsafeMutableBufferPointer(start: stackBase, count: record.pointee.stackCount)
    }

    /// The slot's inline part, right after the record (see `SessionTable`).
    @inline(__always)
    private var inline: UnsafeMutableRawPointer { UnsafeMutableRawPointer(record) + MemoryLayout<SessionRecord>.stride }

    @inline(__always)
    private var stackBase: UnsafeMutablePointer<StackEntry> {
        record.pointee.stackHeap ?? inline.assumingMemoryBound(to: StackEntry.self)
    }
    var modalDepth: Int32 {
        get { record.pointee.modalDepth }
        nonmutating set { record.pointee.modalDepth = newValue }
    }
    var maxModalDepth: Int32 {
        get { record.pointee.maxModalDepth }
        nonmutating set { record.pointee.maxModalDepth = newValue }
    }
    /// The stack entries' id and title bytes.
    var idArena: UnsafeMutablePointer<UInt8>? {
        record.pointee.arenaHeap ?? (inline + SessionInline.arenaOffset).assumingMemoryBound(to: UInt8.self)
    }
    var startedTs: Int64 {
        get { record.pointee.startedTs }
        nonmutating set { record.pointee.startedTs = newValue }
    }
    var lastTs: Int64 {
        get { record.pointee.lastTs }
        nonmutating set { record.pointee.lastTs = newValue }
    }
    var lastSeq: Int64 {
        get { record.pointee.lastSeq }
        nonmutating set { record.pointee.lastSeq = newValue }
    }
    var lastUserActionTs: Int64 {
        get { record.pointee.lastUserActionTs }
        nonmutating set { record.pointee.lastUserActionTs = newValue }
    }
    var lastUserActionControl: Int32 {
        get { record.pointee.lastUserActionControl }
        nonmutating set { record.pointee.lastUserActionControl = newValue }
    }
    var runningTasks: [UInt64] {
        get { record.pointee.runningTasks }
        nonmutating _modify { yield &record.pointee.runningTasks }
    }
    var lastTaskFinishedTs: Int64 {
        get { record.pointee.lastTaskFinishedTs }
        nonmutating set { record.pointee.lastTaskFinishedTs = newValue }
    }
    var lastTaskFailedTs: Int64 {
        get { record.pointee.lastTaskFailedTs }
        nonmutating set { record.pointee.lastTaskFailedTs = newValue }
    }
    var events: UInt64 {
        get { record.pointee.events }
        nonmutating set { record.pointee.events = newValue }
    }
    var alertsPresented: UInt64 {
        get { record.pointee.alertsPresented }
        nonmutating set { record.pointee.alertsPresented = newValue }
    }
    var presentations: UInt64 {
        get { record.pointee.presentations }
        nonmutating set { record.pointee.presentations = newValue }
    }
    var violations: UInt64 {
        get { record.pointee.violations }
        nonmutating set { record.pointee.violations = newValue }
    }
    /// Wall-clock ms of the last event, for `sessions` and idle release.
    var lastObserved: Int64 {
        get { record.pointee.lastObserved }
        nonmutating set { record.pointee.lastObserved = newValue }
    }

    /// Rule counters (MW_SCOPE_SESSION), keyed by rule seed and key.
    var counterMap: IntegerMap {
        _read { yield record.pointee.counterMap }
        nonmutating _modify { yield &record.pointee.counterMap }
    }
    /// Rule windows, keyed by rule seed and key: event times, oldest first.
    var windowRings: WindowRings {
        _read { yield record.pointee.windowRings }
        nonmutating _modify { yield &record.pointee.windowRings }
    }
    /// Firings already made for once-per-subject / key / session rules.
    var firedKeys: IntegerMap {
        _read { yield record.pointee.firedKeys }
        nonmutating _modify { yield &record.pointee.firedKeys }
    }
    /// For once-per-window rules: the event time until which each rule (by seed) stays quiet.
    var quietMap: IntegerMap {
        _read { yield record.pointee.quietMap }
        nonmutating _modify { yield &record.pointee.quietMap }
    }

    /// `counterMap` as a dictionary (snapshots).
    var counters: [UInt64: Int64] {
        get { record.pointee.counterMap.dictionary }
        nonmutating set { record.pointee.counterMap.replace(with: newValue) }
    }
    /// `windowRings` as a dictionary (snapshots).
    var windows: [UInt64: [Int64]] {
        get { record.pointee.windowRings.dictionary }
        nonmutating set { record.pointee.windowRings.replace(with: newValue) }
    }
    /// `firedKeys` as a set (snapshots).
    var fired: Set<UInt64> {
        get { record.pointee.firedKeys.keySet }
        nonmutating set { record.pointee.firedKeys.replace(withKeys: newValue) }
    }
    /// `quietMap` as a dictionary (snapshots).
    var quietUntil: [UInt64: Int64] {
        get { record.pointee.quietMap.dictionary }
        nonmutating set { record.pointee.quietMap.replace(with: newValue) }
    }

    /// The id bytes.
    var idBuffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: record.pointee.idStart, count: record.pointee.idCount) }

    /// The id bytes as an `mw_str`.
    var idStr: mw_str {
        mw_str(ptr: UnsafeRawPointer(record.pointee.idStart).map { $0.assumingMemoryBound(to: CChar.self) }, len: record.pointee.idCount)
    }

    /// Whether the session's id is `other`.
    @inline(__always)
    func idEquals(_ other: UnsafeRawBufferPointer) -> Bool {
        let count = record.pointee.idCount
        return other.count == count && (count == 0 || memcmp(record.pointee.idStart!, other.baseAddress!, count) == 0)
    }

    /// Forgets everything but the id: a new launch under the same id, or an idle restart.
    func reset(app: AppState) {
        record.pointee.reset(app: app)
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
        let used = record.pointee.idArenaUsed
        reserveArena(used + length + titleLength)
        let arena = idArena!
        if length > 0 {
            UnsafeMutableRawPointer(arena + used).copyMemory(from: id.ptr!, byteCount: length)
        }
        if titleLength > 0 {
            UnsafeMutableRawPointer(arena + used + length).copyMemory(from: title.ptr!, byteCount: titleLength)
        }
        entry.idOffset = Int32(used)
        entry.idLength = Int32(length)
        entry.titleLength = Int32(titleLength)
        record.pointee.idArenaUsed = used + length + titleLength
        append(entry)
        if entry.kind == MW_KIND_MODAL.rawValue {
            record.pointee.modalDepth += 1
            record.pointee.maxModalDepth = max(record.pointee.maxModalDepth, record.pointee.modalDepth)
        }
    }

    /// The index of the topmost entry with this id, if any.
    func indexOf(id: mw_str, hash: UInt64) -> Int? {
        guard let arena = idArena else { return nil }
        let stack = self.stack
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
        record.pointee.stackCount = index
        let stack = self.stack
        record.pointee.idArenaUsed = stack.last.map { Int($0.arenaEnd) } ?? 0
        record.pointee.modalDepth = Int32(stack.lazy.filter { $0.kind == MW_KIND_MODAL.rawValue }.count)
    }

    /// Forgets the bottom entry (a stack at its depth limit), keeping the rest.
    func removeBottom() {
        guard let bottom = stack.first, let arena = idArena else { return }
        let shift = Int(bottom.arenaEnd)
        let used = record.pointee.idArenaUsed
        if used > shift { memmove(arena, arena + shift, used - shift) }
        record.pointee.idArenaUsed = used - shift
        let count = record.pointee.stackCount
        let base = stackBase
        (base).update(from: base + 1, count: count - 1)
        record.pointee.stackCount = count - 1
        for i in 0..<(count - 1) { base[i].idOffset -= Int32(shift) }
        record.pointee.modalDepth = Int32(stack.lazy.filter { $0.kind == MW_KIND_MODAL.rawValue }.count)
    }

    /// Puts `entry` on top of the stack, moving it to memory of its own (twice the room) when full.
    private func append(_ entry: StackEntry) {
        let count = record.pointee.stackCount
        if count == record.pointee.stackCapacity {
            let capacity = count * 2
            let grown = UnsafeMutablePointer<StackEntry>.allocate(capacity: capacity)
            grown.initialize(from: stackBase, count: count)
            record.pointee.stackHeap?.deallocate()
            record.pointee.stackHeap = grown
            record.pointee.stackCapacity = capacity
        }
        (stackBase + count).initialize(to: entry)
        record.pointee.stackCount = count + 1
    }

    /// Room for `needed` bytes in the presentation arena, keeping what it holds.
    private func reserveArena(_ needed: Int) {
        guard needed > record.pointee.idArenaCapacity else { return }
        let capacity = max(64, needed * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: idArena!, count: record.pointee.idArenaUsed)
        record.pointee.arenaHeap?.deallocate()
        record.pointee.arenaHeap = grown
        record.pointee.idArenaCapacity = capacity
    }

    /// The title bytes a stack entry keeps (empty when it had none).
    func titleBytes(of entry: StackEntry) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(
            start: idArena.map { UnsafeRawPointer($0 + Int(entry.idOffset + entry.idLength)) },
            count: Int(entry.titleLength))
    }

    /// The id bytes of a stack entry.
    func idBytes(of entry: StackEntry) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(
            start: idArena.map { UnsafeRawPointer($0 + Int(entry.idOffset)) }, count: Int(entry.idLength))
    }
}
