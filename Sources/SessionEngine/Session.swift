import Glibc
import ModalwatchABI

/// One live session: a handle to its `SessionRecord` in the session table's arena. Plain
/// pointers, so reaching a session costs no reference counting. A handle is valid until the
/// table adds a session (which may move the arena) or removes this one.
struct Session: Equatable {
    /// The session's record.
    let record: UnsafeMutablePointer<SessionRecord>
    /// The table's pool, where the record's memory beyond its slot comes from.
    let pool: UnsafeMutablePointer<SpillPool>

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
    /// The number of the session's `locale` in the engine's `LocaleTable` (0: undetermined).
    var locale: UInt16 {
        get { record.pointee.locale }
        nonmutating set { record.pointee.locale = newValue }
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
    /// The tasks started and not yet ended (their id hashes, oldest first), as an array
    /// (snapshots and inspection); `view.tasks_running` counts them.
    var runningTasks: [UInt64] {
        get { Array(UnsafeBufferPointer(start: record.pointee.tasks, count: Int(record.pointee.view.tasks_running))) }
        nonmutating set {
            record.pointee.view.tasks_running = 0
            for task in newValue { addRunningTask(task) }
        }
    }

    /// Running tasks.
    var runningTaskCount: Int { Int(record.pointee.view.tasks_running) }

    /// The index of a running task (its id hash), if it is running.
    func runningTaskIndex(of task: UInt64) -> Int? {
        guard let tasks = record.pointee.tasks else { return nil }
        for i in 0..<runningTaskCount where tasks[i] == task { return i }
        return nil
    }

    /// Adds a task (its id hash) to the running ones.
    func addRunningTask(_ task: UInt64) {
        let count = runningTaskCount
        if count == Int(record.pointee.taskCapacity) {
            let capacity = max(8, count * 2)
            let grown = pool.pointee.allocate(UInt64.self, count: capacity)
            if let tasks = record.pointee.tasks {
                grown.update(from: tasks, count: count)
                pool.pointee.deallocate(tasks, count: count)
            }
            record.pointee.tasks = grown
            record.pointee.taskCapacity = Int32(capacity)
        }
        record.pointee.tasks![count] = task
        record.pointee.view.tasks_running += 1
    }

    /// Removes the running task at `index`, keeping the others' order.
    func removeRunningTask(at index: Int) {
        let tasks = record.pointee.tasks!
        let count = runningTaskCount
        (tasks + index).update(from: tasks + index + 1, count: count - index - 1)
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
    /// Adds `delta` to a rule counter (`counterMap`) and returns the sum.
    @inline(__always)
    func counterAdd(_ key: UInt64, _ delta: Int64) -> Int64 {
        record.pointee.counterMap.add(key, delta, pool: pool)
    }

    /// Adds `ts` to a rule window (`windowRings.push`).
    @inline(__always)
    func windowPush(_ ts: Int64, key: UInt64, window: Int64, limit: Int) -> Int {
        record.pointee.windowRings.push(ts, key: key, window: window, limit: limit, pool: pool)
    }

    /// The firing marks, taken from the pool at the first need.
    private var marks: UnsafeMutablePointer<FiringMarks> {
        if let marks = record.pointee.marks { return marks }
        let marks = pool.pointee.allocate(FiringMarks.self, count: 1)
        marks.initialize(to: FiringMarks())
        record.pointee.marks = marks
        return marks
    }

    /// Whether a firing was already made for `key` (once-per-subject / key / session rules).
    func hasFired(_ key: UInt64) -> Bool { record.pointee.marks?.pointee.fired.contains(key) ?? false }

    /// Marks a firing for `key`; returns whether it is new.
    func fire(_ key: UInt64) -> Bool { marks.pointee.fired.insert(key, pool: pool) }

    /// For once-per-window rules: the event time until which the rule `seed` stays quiet.
    func quietUntil(_ seed: UInt64) -> Int64? { record.pointee.marks?.pointee.quiet.value(seed) }

    /// Keeps the rule `seed` quiet until event time `ts`.
    func setQuiet(_ seed: UInt64, until ts: Int64) { marks.pointee.quiet.set(seed, ts, pool: pool) }

    /// Gives everything the record holds beyond its slot back to the pool (the table's end).
    func releaseSpill() {
        record.pointee.counterMap.release(pool: pool)
        record.pointee.windowRings.release(pool: pool)
        if let marks = record.pointee.marks {
            marks.pointee.fired.release(pool: pool)
            marks.pointee.quiet.release(pool: pool)
            marks.deinitialize(count: 1)
            pool.pointee.deallocate(marks, count: 1)
            record.pointee.marks = nil
        }
        if let tasks = record.pointee.tasks { pool.pointee.deallocate(tasks, count: Int(record.pointee.taskCapacity)) }
        record.pointee.tasks = nil
        record.pointee.taskCapacity = 0
        if let stack = record.pointee.stackHeap {
            pool.pointee.deallocate(stack, count: Int(record.pointee.stackCapacity))
        }
        record.pointee.stackHeap = nil
        if let arena = record.pointee.arenaHeap {
            pool.pointee.deallocate(arena, count: Int(record.pointee.idArenaCapacity))
        }
        record.pointee.arenaHeap = nil
    }

    /// `counterMap` as a dictionary (snapshots).
    var counters: [UInt64: Int64] {
        get { record.pointee.counterMap.dictionary }
        nonmutating set { record.pointee.counterMap.replace(with: newValue, pool: pool) }
    }
    /// `windowRings` as a dictionary (snapshots).
    var windows: [UInt64: [Int64]] {
        get { record.pointee.windowRings.dictionary }
        nonmutating set { record.pointee.windowRings.replace(with: newValue, pool: pool) }
    }
    /// The firings made, as a set (snapshots).
    var fired: Set<UInt64> {
        get { record.pointee.marks?.pointee.fired.keySet ?? [] }
        nonmutating set {
            if newValue.isEmpty && record.pointee.marks == nil { return }
            marks.pointee.fired.replace(withKeys: newValue, pool: pool)
        }
    }
    /// The quiet windows, as a dictionary (snapshots).
    var quietUntil: [UInt64: Int64] {
        get { record.pointee.marks?.pointee.quiet.dictionary ?? [:] }
        nonmutating set {
            if newValue.isEmpty && record.pointee.marks == nil { return }
            marks.pointee.quiet.replace(with: newValue, pool: pool)
        }
    }

    /// The id bytes.
    var idBuffer: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: record.pointee.view.id.ptr, count: record.pointee.view.id.len)
    }

    /// The id bytes as an `mw_str`.
    var idStr: mw_str { record.pointee.view.id }

    /// Whether the session's id is `other`.
    @inline(__always)
    func idEquals(_ other: UnsafeRawBufferPointer) -> Bool {
        let count = record.pointee.view.id.len
        return other.count == count
            && (count == 0 || memcmp(record.pointee.view.id.ptr!, other.baseAddress!, count) == 0)
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
            while titleLength > 0, bytes.load(fromByteOffset: titleLength, as: UInt8.self) & 0xC0 == 0x80 {
                titleLength -= 1
            }
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
            record.pointee.view.max_modal_depth = max(
                record.pointee.view.max_modal_depth,
                record.pointee.view.modal_depth
            )
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
        Int32(UnsafeRawPointer(entry.view.id.ptr!) - UnsafeRawPointer(idArena!))
            + Int32(entry.view.id.len + entry.titleLength)
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
            stack[i].view.id.ptr = id.ptr.map {
                UnsafePointer((UnsafeRawPointer($0) + delta).assumingMemoryBound(to: CChar.self))
            }
        }
    }

    /// Puts `entry` on top of the stack, moving it to memory of its own (twice the room) when full.
    private func append(_ entry: StackEntry) {
        let count = Int(record.pointee.view.stack_count)
        if count == Int(record.pointee.stackCapacity) {
            let capacity = count * 2
            let grown = pool.pointee.allocate(StackEntry.self, count: capacity)
            grown.initialize(from: stackBase, count: count)
            if let old = record.pointee.stackHeap { pool.pointee.deallocate(old, count: count) }
            record.pointee.stackHeap = grown
            record.pointee.stackCapacity = Int32(capacity)
        }
        (stackBase + count).initialize(to: entry)
        record.pointee.view.stack_count = UInt32(count + 1)
    }

    /// Room for `needed` bytes in the presentation arena, keeping what it holds.
    private func reserveArena(_ needed: Int) {
        guard needed > Int(record.pointee.idArenaCapacity) else { return }
        let capacity = SpillPool.blockSize(max(128, needed * 2))
        let grown = pool.pointee.allocate(UInt8.self, count: capacity)
        let old = idArena!
        grown.update(from: old, count: Int(record.pointee.idArenaUsed))
        if let heap = record.pointee.arenaHeap {
            pool.pointee.deallocate(heap, count: Int(record.pointee.idArenaCapacity))
        }
        record.pointee.arenaHeap = grown
        record.pointee.idArenaCapacity = Int32(capacity)
        moveIDs(by: UnsafeRawPointer(grown) - UnsafeRawPointer(old))
    }

    /// The title bytes a stack entry keeps (empty when it had none).
    func titleBytes(of entry: StackEntry) -> UnsafeRawBufferPointer { entry.titleBytes }

    /// The id bytes of a stack entry.
    func idBytes(of entry: StackEntry) -> UnsafeRawBufferPointer { entry.idBytes }
}
