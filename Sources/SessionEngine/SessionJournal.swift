import ByteBasics
import ModalwatchABI

/// The engine's bounded memory of recent events, for `modalwatch session ID`: one
/// fixed ring for every session together, never a growing array per session.
///
/// Each judged event becomes one entry of plain values written in place: the session
/// id's hash, the session's start time (to tell launches under one id apart), the
/// event's type, times and `seq`, a few small figures, and the session id, the
/// presentation id and the title truncated into fixed inline storage. Recording never
/// allocates (the ring is allocated once, at the first event); a query scans the ring,
/// keeps the entries whose hash matches and then compares the ids.
///
/// Only what is still in the ring can be shown: at 16,384 entries, a busy daemon keeps
/// seconds of history, an idle one hours.
public final class SessionJournal {
    /// Entries the engine's journal holds.
    public static let defaultCapacity = 16_384
    /// Bytes of each inline text (session id, presentation id, title); longer ones are cut at a character boundary.
    public static let textCapacity = 48

    /// Fixed inline storage for one short UTF-8 text.
    struct InlineText {
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        /// Bytes kept.
        var count: UInt8 = 0
        /// Whether the text was there at all (a null title is not an empty one).
        var present = false
        /// Length of the whole text as sent, in bytes.
        var fullLength: UInt32 = 0

        /// Copies up to `textCapacity` bytes of `bytes`, never splitting a UTF-8 sequence.
        @inline(__always)
        mutating func set(_ bytes: UnsafeRawBufferPointer) {
            present = true
            fullLength = UInt32(truncatingIfNeeded: bytes.count)
            var kept = min(bytes.count, SessionJournal.textCapacity)
            if kept < bytes.count {
                while kept > 0 && bytes[kept] & 0xC0 == 0x80 { kept -= 1 }
            }
            count = UInt8(kept)
            guard kept > 0, let base = bytes.baseAddress else { return }
            withUnsafeMutableBytes(of: &storage) { $0.baseAddress!.copyMemory(from: base, byteCount: kept) }
        }

        /// Copies `string` as `set(_:)` does; an absent one (null) is kept as absent.
        @inline(__always)
        mutating func set(_ string: mw_str) {
            guard let pointer = string.ptr else {
                present = false
                count = 0
                fullLength = 0
                return
            }
            set(UnsafeRawBufferPointer(start: pointer, count: string.len))
        }

        /// Whether `bytes` is this text: same length, and the kept bytes equal.
        func matches(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard Int(fullLength) == bytes.count else { return false }
            return withUnsafeBytes(of: storage) { kept in
                for i in 0..<Int(count) where kept[i] != bytes[i] { return false }
                return true
            }
        }

        /// The whole text's bytes, when nothing was cut.
        var completeBytes: [UInt8]? {
            guard Int(count) == Int(fullLength) else { return nil }
            return withUnsafeBytes(of: storage) { Array($0[0..<Int(count)]) }
        }

        /// The kept text, and whether it was cut; nil when absent.
        var value: (text: String, truncated: Bool)? {
            guard present else { return nil }
            let text = withUnsafeBytes(of: storage) {
                String(decoding: UnsafeRawBufferPointer(rebasing: $0[0..<Int(count)]), as: UTF8.self)
            }
            return (text, Int(count) < Int(fullLength))
        }
    }

    /// One judged event, as plain values.
    struct Entry {
        var sessionHash: UInt64 = 0
        var sessionStartedTs: Int64 = 0
        var ts: Int64 = 0
        var seq: Int64 = 0
        var observed: Int64 = 0
        var type: UInt8 = 0
        var modalDepth: UInt8 = 0
        var stackDepth: UInt16 = 0
        /// By type: the dismissal's button index, the task state, the action's control, the device.
        var detail: Int32 = MW_ABSENT
        /// A dismissal's `via`.
        var via: Int32 = MW_ABSENT
        /// The session's violations after this event.
        var violations: UInt32 = 0
        var session = InlineText()
        /// The presentation id, the task id or the screen.
        var subject = InlineText()
        /// The title, the action's label, or `session.start`'s app.
        var text = InlineText()
    }

    /// One event as a query returns it.
    public struct Record: Sendable, Equatable {
        /// The event type, e.g. `alert.presented`.
        public var type: String
        /// Event time as judged (ms).
        public var ts: Int64
        /// `seq`, or 0 when the event had none.
        public var seq: Int64
        /// Wall-clock ms when the daemon received it.
        public var observed: Int64
        /// The presentation id (presentations), the task id (`task.progress`) or the screen (`nav.*`).
        public var id: String?
        /// The title (presentations) or the label (`user.action`).
        public var title: String?
        /// Whether `id` or `title` was cut to fit the journal.
        public var truncated: Bool
        /// A dismissal's button index.
        public var button: Int?
        /// A dismissal's `via`.
        public var via: String?
        /// A task's state.
        public var state: String?
        /// A user action's control.
        public var control: String?
        /// `session.start`'s device.
        public var device: String?
        /// `session.start`'s app.
        public var app: String?
        /// Modal depth after the event.
        public var modalDepth: Int
        /// Presentations on the stack after the event.
        public var stackDepth: Int
        /// The session's violations after the event (a running count).
        public var violations: UInt64
        /// The start time of the session (launch) it belongs to.
        public var sessionStartedTs: Int64
    }

    /// Entries it holds at most.
    public let capacity: Int
    private let mask: Int
    private var ring: UnsafeMutablePointer<Entry>?
    /// Events recorded since the engine started (the ring holds the newest `capacity`).
    public private(set) var recorded: UInt64 = 0

    /// A journal of `capacity` entries (rounded up to a power of two; 0 records nothing).
    public init(capacity: Int = SessionJournal.defaultCapacity) {
        var size = 1
        while size < capacity { size <<= 1 }
        self.capacity = capacity <= 0 ? 0 : size
        mask = size - 1
    }

    deinit {
        if let ring {
            ring.deinitialize(count: capacity)
            ring.deallocate()
        }
    }

    /// Entries held now.
    public var count: Int { Int(min(recorded, UInt64(capacity))) }

    /// Records `event`, judged, with `session` as it now stands. No allocation: the entry is
    /// written in place, each field once (a text's bytes past its count are never read).
    func record(_ event: UnsafePointer<mw_event>, session: Session, observed: Int64) {
        guard capacity > 0 else { return }
        let ring = self.ring ?? allocateRing()
        let entry = ring + (Int(truncatingIfNeeded: recorded) & mask)
        recorded &+= 1
        let type = event.pointee.type
        entry.pointee.sessionHash = session.idHash
        entry.pointee.sessionStartedTs = session.startedTs
        entry.pointee.ts = event.pointee.ts
        entry.pointee.seq = event.pointee.seq
        entry.pointee.observed = observed
        entry.pointee.type = UInt8(truncatingIfNeeded: type)
        entry.pointee.modalDepth = UInt8(clamping: session.modalDepth)
        entry.pointee.stackDepth = UInt16(clamping: session.stack.count)
        entry.pointee.violations = UInt32(clamping: session.violations)
        entry.pointee.session.set(session.idBuffer)
        var detail = MW_ABSENT
        var via = MW_ABSENT
        var subject = mw_str(ptr: nil, len: 0)
        var text = mw_str(ptr: nil, len: 0)
        switch type {
        case MW_EVENT_SESSION_START.rawValue:
            detail = event.pointee.device
            text = event.pointee.app
        case MW_EVENT_USER_ACTION.rawValue:
            detail = event.pointee.control
            text = event.pointee.label
        case MW_EVENT_TASK_PROGRESS.rawValue:
            detail = event.pointee.task_state
            subject = event.pointee.task
        case MW_EVENT_ALERT_PRESENTED.rawValue, MW_EVENT_SHEET_PRESENTED.rawValue,
            MW_EVENT_MODAL_PRESENTED.rawValue, MW_EVENT_POPOVER_PRESENTED.rawValue:
            subject = event.pointee.id
            text = event.pointee.title
        case MW_EVENT_ALERT_DISMISSED.rawValue, MW_EVENT_SHEET_DISMISSED.rawValue,
            MW_EVENT_MODAL_DISMISSED.rawValue, MW_EVENT_POPOVER_DISMISSED.rawValue:
            subject = event.pointee.id
            detail = event.pointee.button
            via = event.pointee.via
        case MW_EVENT_NAV_PUSH.rawValue, MW_EVENT_NAV_POP.rawValue:
            subject = event.pointee.screen
        default:
            break
        }
        entry.pointee.detail = detail
        entry.pointee.via = via
        entry.pointee.subject.set(subject)
        entry.pointee.text.set(text)
    }

    private func allocateRing() -> UnsafeMutablePointer<Entry> {
        let ring = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        ring.initialize(repeating: Entry(), count: capacity)
        self.ring = ring
        return ring
    }

    /// Calls `body` with the entries at `positions` (the n-th event recorded is at n) that the
    /// ring still holds, newest first: a walk in slices that the ring overwrites meanwhile.
    func forEachEntry(at positions: Range<UInt64>, _ body: (Entry) -> Void) {
        guard let ring else { return }
        var position = min(positions.upperBound, recorded)
        let lowest = max(positions.lowerBound, recorded - UInt64(count))
        while position > lowest {
            position -= 1
            body(ring[Int(truncatingIfNeeded: position) & mask])
        }
    }

    /// An entry as a query returns it.
    static func record(of entry: Entry) -> Record {
        let type = Int(entry.type) < typeNames.count ? typeNames[Int(entry.type)] : "unknown"
        let subject = entry.subject.value
        let text = entry.text.value
        var record = Record(
            type: type,
            ts: entry.ts,
            seq: entry.seq,
            observed: entry.observed,
            id: subject?.text,
            title: text?.text,
            truncated: subject?.truncated == true || text?.truncated == true,
            button: nil,
            via: nil,
            state: nil,
            control: nil,
            device: nil,
            app: nil,
            modalDepth: Int(entry.modalDepth),
            stackDepth: Int(entry.stackDepth),
            violations: UInt64(entry.violations),
            sessionStartedTs: entry.sessionStartedTs
        )
        switch UInt32(entry.type) {
        case MW_EVENT_SESSION_START.rawValue:
            record.device = name(entry.detail, in: deviceNames)
            record.app = record.title
            record.title = nil
        case MW_EVENT_USER_ACTION.rawValue:
            record.control = name(entry.detail, in: controlNames)
        case MW_EVENT_TASK_PROGRESS.rawValue:
            record.state = name(entry.detail, in: taskStateNames)
        case MW_EVENT_ALERT_DISMISSED.rawValue, MW_EVENT_SHEET_DISMISSED.rawValue,
            MW_EVENT_MODAL_DISMISSED.rawValue, MW_EVENT_POPOVER_DISMISSED.rawValue:
            record.button = entry.detail == MW_ABSENT ? nil : Int(entry.detail)
            record.via = name(entry.via, in: viaNames)
        default:
            break
        }
        return record
    }

    private static func name(_ value: Int32, in names: [String]) -> String? {
        value >= 0 && Int(value) < names.count ? names[Int(value)] : nil
    }

    /// Wire names by `mw_event_type` (ByteBasics' wire vocabulary; 0 is `unknown`).
    static let typeNames = ["unknown"] + WireEventType.allCases.map(\.string)
    private static let deviceNames = WireDevice.allCases.map(\.string)
    private static let controlNames = WireControl.allCases.map(\.string)
    private static let taskStateNames = WireTaskState.allCases.map(\.string)
    private static let viaNames = WireVia.allCases.map(\.string)
}

/// Not `Sendable`: confined to the engine's thread.
@available(*, unavailable)
extension SessionJournal: Sendable {}
