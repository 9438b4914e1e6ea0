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
    var id: IDBytes { IDBytes(pointer: record.pointee.idStart, count: record.pointee.view.id.len) }
    /// Hash of the id, for the session table.
    var idHash: UInt64 { record.pointee.idHash }

    /// The app it belongs to (the engine's `apps` holds it; see `SessionRecord.app`).
    var app: AppState {
        get { record.pointee.app!.takeUnretainedValue() }
        nonmutating set { record.pointee.setApp(newValue) }
    }

    /// Runs `body` on the app without retaining it (the engine's `apps` holds it).
    @inline(__always)
    func withApp<Result>(_ body: (AppState) -> Result) -> Result {
        record.pointee.app!._withUnsafeGuaranteedRef(body)
    }

    var device: Int32 {
        get { record.pointee.view.device }
        nonmutating set { record.pointee.view.device = newValue }
    }
    var sizeClass: Int32 {
        get { record.pointee.view.size_class }
        nonmutating set { record.pointee.view.size_class = newValue }
    }
    var foreground: Bool {
        get { record.pointee.view.foreground != 0 }
        nonmutating set { record.pointee.view.foreground = newValue ? 1 : 0 }
    }
    /// The presentation stack, bottom first (valid while the handle is).
    var stack: UnsafeMutableBufferPointer<StackEntry> {
        UnsafeMutableBufferPointer(start: stackBase, count: Int(record.pointee.view.stack_count))
    }

    /// The slot's inline part, right after the record (see `SessionTable`).
    @inline(__always)
    private var inline: UnsafeMutableRawPointer { UnsafeMutableRawPointer(record) + MemoryLayout<SessionRecord>.stride }

    @inline(__always)
    var stackBase: UnsafeMutablePointer<StackEntry> {
        record.pointee.stackHeap ?? inline.assumingMemoryBound(to: StackEntry.self)
    }
    var modalDepth: Int32 {
        get { record.pointee.view.modal_depth }
        nonmutating set { record.pointee.view.modal_depth = newValue }
    }
    var maxModalDepth: Int32 {
        get { record.pointee.view.max_modal_depth }
        nonmutating set { record.pointee.view.max_modal_depth = newValue }
    }
    /// The stack entries' id and title bytes.
    var idArena: UnsafeMutablePointer<UInt8>? {
        record.pointee.arenaHeap ?? (inline + SessionInline.arenaOffset).assumingMemoryBound(to: UInt8.self)
    }
    var startedTs: Int64 {
        get { record.pointee.view.started_ts }
        nonmutating set { record.pointee.view.started_ts = newValue }
    }
    var lastTs: Int64 {
        get { record.pointee.view.last_ts }
        nonmutating set { record.pointee.view.last_ts = newValue }
    }
    var lastSeq: Int64 {
        get { record.pointee.lastSeq }
        nonmutating set { record.pointee.lastSeq = newValue }
    }
    var lastUserActionTs: Int64 {
        get { record.pointee.view.last_user_action_ts }
        nonmutating set { record.pointee.view.last_user_action_ts = newValue }
    }
    var lastUserActionControl: Int32 {
        get { record.pointee.view.last_user_action_control }
        nonmutating set { record.pointee.view.last_user_action_control = newValue }
    }
    /// The tasks started and not yet ended (their id hashes); `view.tasks_running` counts them.
    var runningTasks: [UInt64] {
        get { record.pointee.runningTasks }
        nonmutating set {
            record.pointee.runningTasks = newValue
            record.pointee.view.tasks_running = Int32(newValue.count)
        }
    }

    /// Adds a task (its id hash) to the running ones.
    func addRunningTask(_ task: UInt64) {
        record.pointee.runningTasks.append(task)
        record.pointee.view.tasks_running += 1
    }

    /// Removes the running task at `index`.
    func removeRunningTask(at index: Int) {
        record.pointee.runningTasks.remove(at: index)
        record.pointee.view.tasks_running -= 1
    }
    var lastTaskFinishedTs: Int64 {
        get { record.pointee.view.last_task_finished_ts }
        nonmutating set { record.pointee.view.last_task_finished_ts = newValue }
    }
    var lastTaskFailedTs: Int64 {
        get { record.pointee.view.last_task_failed_ts }
        nonmutating set { record.pointee.view.last_task_failed_ts = newValue }
    }
    var events: UInt64 {
        get { record.pointee.view.events }
        nonmutating set { record.pointee.view.events = newValue }
    }
    var alertsPresented: UInt64 {
        get { record.pointee.view.alerts_presented }
        nonmutating set { record.pointee.view.alerts_presented = newValue }
    }
    var presentations: UInt64 {
        get { record.pointee.view.presentations }
        nonmutating set { record.pointee.view.presentations = newValue }
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
    var idBuffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: record.pointee.view.id.ptr, count: record.pointee.view.id.len) }

    /// The id bytes as an `mw_str`.
    var idStr: mw_str { record.pointee.view.id }

    /// Whether the session's id is `other`.
    @inline(__always)
    func idEquals(_ other: UnsafeRawBufferPointer) -> Bool {
        let count = record.pointee.view.id.len
        return other.count == count && (count == 0 || memcmp(record.pointee.view.id.ptr!, other.baseAddress!, count) == 0)
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
        let used = Int(record.pointee.idArenaUsed)
        let prefix = StackEntry.titleLengthBytes
        reserveArena(used + prefix + length + titleLength)
        let place = UnsafeMutableRawPointer(idArena!) + used
        place.storeBytes(of: UInt16(titleLength), as: UInt16.self)
        if length > 0 {
            (place + prefix).copyMemory(from: id.ptr!, byteCount: length)
        }
        if titleLength > 0 {
            (place + prefix + length).copyMemory(from: title.ptr!, byteCount: titleLength)
        }
        entry.view.id = mw_str(ptr: UnsafePointer((place + prefix).assumingMemoryBound(to: CChar.self)), len: length)
        record.pointee.idArenaUsed = Int32(used + prefix + length + titleLength)
        append(entry)
        if entry.kind == MW_KIND_MODAL.rawValue {
            record.pointee.view.modal_depth += 1
            record.pointee.view.max_modal_depth = max(record.pointee.view.max_modal_depth, record.pointee.view.modal_depth)
        }
    }

    /// The index of the topmost entry with this id, if any.
    func indexOf(id: mw_str) -> Int? {
        let stack = self.stack
        var i = stack.count - 1
        while i >= 0 {
            let entry = stack[i].view.id
            if entry.len == id.len, id.len == 0 || memcmp(entry.ptr!, id.ptr!, id.len) == 0 {
                return i
            }
            i -= 1
        }
        return nil
    }

    /// Where an entry's bytes in the arena end.
    @inline(__always)
    private func arenaEnd(of entry: StackEntry) -> Int32 {
        Int32(UnsafeRawPointer(entry.view.id.ptr!) - UnsafeRawPointer(idArena!)) + Int32(entry.view.id.len + entry.titleLength)
    }

    /// Removes the entry at `index` and everything presented above it.
    func pop(downTo index: Int) {
        record.pointee.view.stack_count = UInt32(index)
        let stack = self.stack
        record.pointee.idArenaUsed = stack.last.map { arenaEnd(of: $0) } ?? 0
        record.pointee.view.modal_depth = Int32(stack.lazy.filter { $0.kind == MW_KIND_MODAL.rawValue }.count)
    }

    /// Forgets the bottom entry (a stack at its depth limit), keeping the rest.
    func removeBottom() {
        guard let bottom = stack.first, let arena = idArena else { return }
        let shift = Int(arenaEnd(of: bottom))
        let used = Int(record.pointee.idArenaUsed)
        if used > shift { memmove(arena, arena + shift, used - shift) }
        record.pointee.idArenaUsed = Int32(used - shift)
        let count = stack.count
        let base = stackBase
        (base).update(from: base + 1, count: count - 1)
        record.pointee.view.stack_count = UInt32(count - 1)
        moveIDs(by: -shift)
        record.pointee.view.modal_depth = Int32(stack.lazy.filter { $0.kind == MW_KIND_MODAL.rawValue }.count)
    }

    /// Moves every stack entry's id pointer by `delta` bytes (the arena moved).
    func moveIDs(by delta: Int) {
        guard delta != 0 else { return }
        for i in stack.indices {
            let id = stack[i].view.id
            stack[i].view.id.ptr = id.ptr.map { UnsafePointer((UnsafeRawPointer($0) + delta).assumingMemoryBound(to: CChar.self)) }
        }
    }

    /// Puts `entry` on top of the stack, moving it to memory of its own (twice the room) when full.
    private func append(_ entry: StackEntry) {
        let count = Int(record.pointee.view.stack_count)
        if count == Int(record.pointee.stackCapacity) {
            let capacity = count * 2
            let grown = UnsafeMutablePointer<StackEntry>.allocate(capacity: capacity)
            grown.initialize(from: stackBase, count: count)
            record.pointee.stackHeap?.deallocate()
            record.pointee.stackHeap = grown
            record.pointee.stackCapacity = Int32(capacity)
        }
        (stackBase + count).initialize(to: entry)
        record.pointee.view.stack_count = UInt32(count + 1)
    }

    /// Room for `needed` bytes in the presentation arena, keeping what it holds.
    private func reserveArena(_ needed: Int) {
        guard needed > Int(record.pointee.idArenaCapacity) else { return }
        let capacity = max(128, needed * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let old = idArena!
        grown.update(from: old, count: Int(record.pointee.idArenaUsed))
        record.pointee.arenaHeap?.deallocate()
        record.pointee.arenaHeap = grown
        record.pointee.idArenaCapacity = Int32(capacity)
        moveIDs(by: UnsafeRawPointer(grown) - UnsafeRawPointer(old))
    }

    /// The title bytes a stack entry keeps (empty when it had none).
    func titleBytes(of entry: StackEntry) -> UnsafeRawBufferPointer { entry.titleBytes }

    /// The id bytes of a stack entry.
    func idBytes(of entry: StackEntry) -> UnsafeRawBufferPointer { entry.idBytes }
}
