import CRuleGuard
import Posix
import SessionEngine

/// The rule-call marker an earlier run left in the state directory (`rule-call.marker`, laid
/// out in `rule_guard.h`: the `mw_marker` record, then from `MW_MARKER_NAMES_OFFSET` one
/// `MW_MARKER_NAME_BYTES` slot of module and rule name per rule), read back at the start.
///
/// Read a part at a time, never whole: the record, then the one slot of the rule it names. Each
/// integer is bounded where it is read, and a marker outside what the daemon writes is refused
/// by its field: `size` (short of the record's table), `magic`, `version`, `state` (not one of
/// the four), and for a crash or hang `signal` (not 1 to 64), `rule` (not below `rule_count`,
/// or its slot past the file's end) and `session_len` (past `MW_MARKER_SESSION_BYTES`).
/// `generation` is not read; `event_type` and `event_ts` are printed as they are, in no arithmetic.
enum RuleCallMarkerFile {
    /// What a marker says.
    enum Reading: Equatable {
        /// No marker, or an empty file (a run that ended before it wrote its marker).
        case absent
        /// The last run ended outside a rule call, or in one killed from outside (kill -9): not the rule's fault.
        case noFault
        /// The last run ended in a crash or a hang of this rule, on this event.
        case fault(module: String, rule: String, fault: String, event: String)
    }

    /// The largest signal number a crash may name (`SIGRTMAX` on Linux).
    static let maxSignal: Int32 = 64

    /// The marker at `path`, or the refusal of the field that is not what the daemon writes.
    static func read(_ path: String) throws(StateFileRefusal) -> Reading {
        guard let file = try ReadBackFile.open(path), file.size > 0 else { return .absent }
        let namesOffset = Int(MW_MARKER_NAMES_OFFSET)
        guard file.size >= namesOffset else {
            throw StateFileRefusal(
                path,
                field: "size",
                "\(file.size) bytes, fewer than the \(namesOffset) before its names"
            )
        }
        let head = try file.bytes(at: 0, count: MemoryLayout<mw_marker>.size)
        guard head.count == MemoryLayout<mw_marker>.size else {
            throw StateFileRefusal(path, field: "size", "the file ended after \(head.count) bytes")
        }
        var record = mw_marker()
        withUnsafeMutableBytes(of: &record) { $0.copyBytes(from: head) }
        guard record.magic == MW_MARKER_MAGIC else {
            throw StateFileRefusal(
                path,
                field: "magic",
                "0x\(String(record.magic, radix: 16)), not 0x\(String(MW_MARKER_MAGIC, radix: 16)) (MWMK)"
            )
        }
        guard record.version == MW_MARKER_VERSION else {
            throw StateFileRefusal(
                path,
                field: "version",
                "\(record.version); this release reads version \(MW_MARKER_VERSION)"
            )
        }
        let fault: String
        switch record.state {
        case MW_MARKER_IDLE, MW_MARKER_IN_CALL: return .noFault
        case MW_MARKER_CRASHED:
            guard (1...maxSignal).contains(record.signal) else {
                throw StateFileRefusal(
                    path,
                    field: "signal",
                    "\(record.signal), not a signal number (1 to \(maxSignal))"
                )
            }
            fault = "crashed (\(Posix.signalName(record.signal)))"
        case MW_MARKER_HUNG: fault = "hung (the watchdog ended it)"
        default:
            throw StateFileRefusal(
                path,
                field: "state",
                "\(record.state), not one of \(MW_MARKER_IDLE) to \(MW_MARKER_HUNG)"
            )
        }
        guard record.rule < record.rule_count else {
            throw StateFileRefusal(
                path,
                field: "rule",
                "index \(record.rule), not below rule_count \(record.rule_count)"
            )
        }
        // At most 512 + (2^32 − 1) × 128 bytes: no overflow in Int.
        let slot = namesOffset + Int(record.rule) * Int(MW_MARKER_NAME_BYTES)
        guard file.size - slot >= Int(MW_MARKER_NAME_BYTES) else {
            throw StateFileRefusal(
                path,
                field: "rule",
                "index \(record.rule): its name at byte \(slot) is past the file's end (\(file.size) bytes)"
            )
        }
        guard record.session_len <= UInt32(MW_MARKER_SESSION_BYTES) else {
            throw StateFileRefusal(
                path,
                field: "session_len",
                "\(record.session_len), past the \(MW_MARKER_SESSION_BYTES) bytes kept"
            )
        }
        let names = try file.bytes(at: slot, count: Int(MW_MARKER_NAME_BYTES))
        guard names.count == Int(MW_MARKER_NAME_BYTES) else {
            throw StateFileRefusal(path, field: "rule", "index \(record.rule): the file ended inside its name")
        }
        let moduleBytes = Int(MW_MARKER_MODULE_BYTES)
        return .fault(
            module: text(names[..<moduleBytes]),
            rule: text(names[moduleBytes...]),
            fault: fault,
            event: eventText(record)
        )
    }

    /// The event of `record` in words: type, `ts` and session (its first `session_len` bytes, at
    /// most `MW_MARKER_SESSION_BYTES`).
    static func eventText(_ record: mw_marker) -> String {
        var record = record
        let length = min(Int(record.session_len), Int(MW_MARKER_SESSION_BYTES))
        let session = withUnsafeBytes(of: &record.session) { String(decoding: $0.prefix(length), as: UTF8.self) }
        return "\(EventTypeName.of(record.event_type)) at ts \(record.event_ts) of session \(session)"
    }

    /// The NUL-padded name in `bytes`.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
