import ByteBasics
import EventDecoding

/// The snapshot's binary form (format version 3, which adds each stack entry's title; version 2
/// is still read, its entries without titles; version 1 was JSON, still read by the daemon). A
/// session with a `locale` sets the flag `locale` and ends with the tag; one without is written
/// as before it was kept.
///
/// Header, 32 bytes, little-endian: magic `MWSN`, format version (UInt32), session count
/// (UInt64), body length (UInt64), FNV-1a 64 of the body (UInt64). Body: the apps (count, then
/// name, counters, fired), then the sessions, least recently active first. Integers are LEB128
/// varints (zigzag when signed), hashes are fixed eight-byte words, byte strings are
/// length-prefixed; a session names its app by index, and its timestamps other than `lastTs`
/// are deltas from `lastTs`, absent ones (`Int64.min`) marked in a flag byte instead of stored.
extension EngineSnapshot {
    /// The magic bytes a binary snapshot starts with.
    public static let binaryMagic: [UInt8] = Array("MWSN".utf8)
    /// The binary format's version.
    public static let binaryFormatVersion: UInt32 = 3
    /// The oldest binary format version still read.
    static let oldestBinaryFormatVersion: UInt32 = 2
    /// Bytes before the body.
    public static let binaryHeaderSize = 32

    private enum Flag {
        static let foreground: UInt8 = 1 << 0
        static let lastTs: UInt8 = 1 << 1
        static let startedTs: UInt8 = 1 << 2
        static let lastUserActionTs: UInt8 = 1 << 3
        static let lastTaskFinishedTs: UInt8 = 1 << 4
        static let lastTaskFailedTs: UInt8 = 1 << 5
        static let locale: UInt8 = 1 << 6
        static let known: UInt8 = 0x7F
    }

    /// True when `bytes` start like a binary snapshot (and not, say, like JSON).
    public static func looksBinary(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && bytes.prefix(4).elementsEqual(binaryMagic)
    }

    /// The snapshot in the binary format.
    public func binaryEncoded() -> [UInt8] {
        var out = SnapshotWriter(reservingCapacity: Self.binaryHeaderSize + 64 * apps.count + 96 * sessions.count)
        for byte in Self.binaryMagic { out.byte(byte) }
        withUnsafeBytes(of: Self.binaryFormatVersion.littleEndian) { for b in $0 { out.byte(b) } }
        out.fixed(UInt64(sessions.count))
        out.fixed(0)  // body length, patched below
        out.fixed(0)  // checksum, patched below

        var appIndex: [String: Int] = [:]
        var appNames = apps.map(\.name)
        for (i, name) in appNames.enumerated() { appIndex[name] = i }
        for session in sessions where appIndex[session.app] == nil {
            appIndex[session.app] = appNames.count
            appNames.append(session.app)
        }
        out.count(appNames.count)
        for (i, name) in appNames.enumerated() {
            out.string(name)
            let app = i < apps.count ? apps[i] : AppStateSnapshot(name: name, counters: [:], fired: [])
            Self.write(app.counters, base: 0, to: &out)
            Self.write(app.fired, to: &out)
        }
        // By reference, not by copy (a copy retains and releases each of the session's
        // arrays and maps); the app's index is looked up only when the app changes.
        sessions.withUnsafeBufferPointer { all in
            var lastApp = ""
            var lastIndex = 0
            for i in all.indices {
                if i == 0 || all[i].app != lastApp {
                    lastApp = all[i].app
                    lastIndex = appIndex[lastApp]!
                }
                Self.write(all[i], appIndex: lastIndex, to: &out)
            }
        }

        let bodyLength = out.bytes.count - Self.binaryHeaderSize
        let checksum = out.bytes.withUnsafeBytes {
            FNV1a64.hash(UnsafeRawBufferPointer(rebasing: $0[Self.binaryHeaderSize...]))
        }
        out.patch(UInt64(bodyLength), at: 16)
        out.patch(checksum, at: 24)
        return out.bytes
    }

    /// Reads a binary snapshot, checking the header, the checksum and every field's bounds.
    public static func decodeBinary(_ bytes: UnsafeRawBufferPointer) throws(SnapshotFormatError) -> EngineSnapshot {
        guard looksBinary(bytes) else { throw .notASnapshot }
        guard bytes.count >= binaryHeaderSize else { throw .truncated(offset: bytes.count) }
        let version = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        guard version >= oldestBinaryFormatVersion, version <= binaryFormatVersion else {
            throw .unsupportedVersion(version)
        }
        let sessionCount = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let bodyLength = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        let expected = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        guard bodyLength == UInt64(bytes.count - binaryHeaderSize) else {
            throw bodyLength > UInt64(bytes.count - binaryHeaderSize)
                ? .truncated(offset: bytes.count)
                : .malformed("bytes after the body", offset: binaryHeaderSize + Int(bodyLength))
        }
        let found = FNV1a64.hash(UnsafeRawBufferPointer(rebasing: bytes[binaryHeaderSize...]))
        guard found == expected else { throw .checksumMismatch(expected: expected, found: found) }
        guard sessionCount <= bodyLength / 8 else {
            throw .malformed("a session count larger than the body allows", offset: 8)
        }

        var reader = SnapshotReader(bytes, offset: binaryHeaderSize)
        let appCount = try reader.count(minimumSize: 3)
        var apps: [AppStateSnapshot] = []
        apps.reserveCapacity(appCount)
        for _ in 0..<appCount {
            let name = try reader.string()
            let counters = try readCounters(&reader, base: 0)
            let fired = try readFired(&reader)
            apps.append(AppStateSnapshot(name: name, counters: counters, fired: fired))
        }
        var sessions: [SessionState] = []
        sessions.reserveCapacity(Int(sessionCount))
        for _ in 0..<sessionCount {
            sessions.append(try readSession(&reader, apps: apps, titles: version >= 3))
        }
        guard reader.remaining == 0 else { throw .malformed("bytes after the last session", offset: reader.offset) }
        return EngineSnapshot(version: currentVersion, apps: apps, sessions: sessions)
    }

    // MARK: writing

    private static func write(_ session: SessionState, appIndex: Int, to out: inout SnapshotWriter) {
        out.data(session.id)
        out.count(appIndex)
        var flags: UInt8 = session.foreground ? Flag.foreground : 0
        if session.lastTs != .min { flags |= Flag.lastTs }
        if session.startedTs != .min { flags |= Flag.startedTs }
        if session.lastUserActionTs != .min { flags |= Flag.lastUserActionTs }
        if session.lastTaskFinishedTs != .min { flags |= Flag.lastTaskFinishedTs }
        if session.lastTaskFailedTs != .min { flags |= Flag.lastTaskFailedTs }
        if session.locale?.isEmpty == false { flags |= Flag.locale }
        out.byte(flags)
        let base = session.lastTs == .min ? 0 : session.lastTs
        if session.lastTs != .min { out.signed(session.lastTs) }
        if session.startedTs != .min { out.signed(session.startedTs &- base) }
        if session.lastUserActionTs != .min { out.signed(session.lastUserActionTs &- base) }
        if session.lastTaskFinishedTs != .min { out.signed(session.lastTaskFinishedTs &- base) }
        if session.lastTaskFailedTs != .min { out.signed(session.lastTaskFailedTs &- base) }
        out.signed(session.device)
        out.signed(session.sizeClass)
        out.signed(session.maxModalDepth)
        out.signed(session.lastSeq)
        out.signed(session.lastUserActionControl)
        out.signed(session.lastObserved &- base)
        out.unsigned(session.events)
        out.unsigned(session.alertsPresented)
        out.unsigned(session.presentations)
        out.unsigned(session.violations)
        out.count(session.stack.count)
        for entry in session.stack {
            out.unsigned(UInt64(entry.kind))
            out.data(entry.id)
            out.signed(entry.ts &- base)
            out.signed(entry.style)
            out.signed(entry.transition)
            out.signed(entry.sizeClass)
            out.signed(entry.navDepth)
            out.signed(entry.buttonCount)
            out.signed(entry.cancelIndex)
            out.signed(entry.destructiveIndex)
            out.signed(entry.inPopover)
            out.data(entry.title ?? [])
        }
        out.count(session.runningTasks.count)
        for task in session.runningTasks { out.fixed(task) }
        write(session.counters, base: 0, to: &out)
        out.count(session.windows.count)
        if !session.windows.isEmpty {
            for (key, times) in session.windows.sorted(by: { $0.key < $1.key }) {
                out.fixed(key)
                out.count(times.count)
                for time in times { out.signed(time &- base) }
            }
        }
        write(session.fired, to: &out)
        write(session.quietUntil, base: base, to: &out)
        if let locale = session.locale, !locale.isEmpty { out.data(locale) }
    }

    private static func write(_ map: [UInt64: Int64], base: Int64, to out: inout SnapshotWriter) {
        out.count(map.count)
        guard !map.isEmpty else { return }
        for (key, value) in map.sorted(by: { $0.key < $1.key }) {
            out.fixed(key)
            out.signed(value &- base)
        }
    }

    private static func write(_ fired: [UInt64], to out: inout SnapshotWriter) {
        out.count(fired.count)
        for key in fired { out.fixed(key) }
    }

    // MARK: reading

    private static func readSession(
        _ reader: inout SnapshotReader,
        apps: [AppStateSnapshot],
        titles: Bool
    ) throws(SnapshotFormatError) -> SessionState {
        let id = try reader.data()
        // An index, not a count: bounded by the apps read, not by the bytes left.
        let index = try reader.unsigned()
        guard index < UInt64(apps.count) else { throw .malformed("an app index out of range", offset: reader.offset) }
        let appIndex = Int(index)
        let flags = try reader.byte()
        guard flags & ~Flag.known == 0 else { throw .malformed("unknown session flags", offset: reader.offset) }
        let lastTs = flags & Flag.lastTs != 0 ? (try reader.signed()) : .min
        let base = lastTs == .min ? 0 : lastTs
        func optionalTime(_ flag: UInt8) throws(SnapshotFormatError) -> Int64 {
            flags & flag != 0 ? (try reader.signed()) &+ base : .min
        }
        let startedTs = try optionalTime(Flag.startedTs)
        let lastUserActionTs = try optionalTime(Flag.lastUserActionTs)
        let lastTaskFinishedTs = try optionalTime(Flag.lastTaskFinishedTs)
        let lastTaskFailedTs = try optionalTime(Flag.lastTaskFailedTs)
        let device = try reader.signed32()
        let sizeClass = try reader.signed32()
        let maxModalDepth = try reader.signed32()
        let lastSeq = try reader.signed()
        let lastUserActionControl = try reader.signed32()
        let lastObserved = (try reader.signed()) &+ base
        let events = try reader.unsigned()
        let alertsPresented = try reader.unsigned()
        let presentations = try reader.unsigned()
        let violations = try reader.unsigned()
        let stackCount = try reader.count(minimumSize: 11)
        var stack: [Entry] = []
        if stackCount > 0 { stack.reserveCapacity(stackCount) }
        for _ in 0..<stackCount {
            let rawKind = try reader.unsigned()
            guard let kind = UInt32(exactly: rawKind) else {
                throw .malformed("a stack entry kind out of range", offset: reader.offset)
            }
            stack.append(
                Entry(
                    kind: kind,
                    id: try reader.data(),
                    ts: (try reader.signed()) &+ base,
                    style: try reader.signed32(),
                    transition: try reader.signed32(),
                    sizeClass: try reader.signed32(),
                    navDepth: try reader.signed32(),
                    buttonCount: try reader.signed32(),
                    cancelIndex: try reader.signed32(),
                    destructiveIndex: try reader.signed32(),
                    inPopover: try reader.signed32(),
                    title: try titles ? reader.data().nonEmpty : nil
                )
            )
        }
        let taskCount = try reader.count(minimumSize: 8)
        var runningTasks: [UInt64] = []
        if taskCount > 0 { runningTasks.reserveCapacity(taskCount) }
        for _ in 0..<taskCount { runningTasks.append(try reader.fixed()) }
        let counters = try readCounters(&reader, base: 0)
        let windowCount = try reader.count(minimumSize: 9)
        var windows: [UInt64: [Int64]] = [:]
        if windowCount > 0 { windows.reserveCapacity(windowCount) }
        for _ in 0..<windowCount {
            let key = try reader.fixed()
            let timeCount = try reader.count()
            var times: [Int64] = []
            times.reserveCapacity(timeCount)
            for _ in 0..<timeCount { times.append((try reader.signed()) &+ base) }
            windows[key] = times
        }
        let fired = try readFired(&reader)
        let quietUntil = try readCounters(&reader, base: base)
        let tag = flags & Flag.locale != 0 ? try reader.data() : nil
        if let tag, tag.isEmpty || tag.count > LocaleTag.maxBytes {
            throw .malformed("a locale that is not a tag's length", offset: reader.offset)
        }
        var state = SessionState(
            id: id,
            app: apps[appIndex].name,
            device: device,
            sizeClass: sizeClass,
            foreground: flags & Flag.foreground != 0,
            stack: stack,
            maxModalDepth: maxModalDepth,
            startedTs: startedTs,
            lastTs: lastTs,
            lastSeq: lastSeq,
            lastUserActionTs: lastUserActionTs,
            lastUserActionControl: lastUserActionControl,
            runningTasks: runningTasks,
            lastTaskFinishedTs: lastTaskFinishedTs,
            lastTaskFailedTs: lastTaskFailedTs,
            events: events,
            alertsPresented: alertsPresented,
            presentations: presentations,
            violations: violations,
            lastObserved: lastObserved,
            counters: counters,
            windows: windows,
            fired: fired,
            quietUntil: quietUntil
        )
        state.locale = tag
        return state
    }

    private static func readCounters(
        _ reader: inout SnapshotReader,
        base: Int64
    ) throws(SnapshotFormatError) -> [UInt64: Int64] {
        let count = try reader.count(minimumSize: 9)
        // Most sessions have none: an empty map must stay the shared empty one (even
        // `reserveCapacity(0)` allocates storage, two allocations a session on restore).
        guard count > 0 else { return [:] }
        var map: [UInt64: Int64] = [:]
        map.reserveCapacity(count)
        for _ in 0..<count {
            let key = try reader.fixed()
            map[key] = (try reader.signed()) &+ base
        }
        return map
    }

    private static func readFired(_ reader: inout SnapshotReader) throws(SnapshotFormatError) -> [UInt64] {
        let count = try reader.count(minimumSize: 8)
        guard count > 0 else { return [] }
        var fired: [UInt64] = []
        fired.reserveCapacity(count)
        for _ in 0..<count { fired.append(try reader.fixed()) }
        return fired
    }
}

extension Array where Element == UInt8 {
    /// The bytes, or nil when there are none (an entry without a title).
    fileprivate var nonEmpty: [UInt8]? { isEmpty ? nil : self }
}
