import CRuleGuard
import Foundation
import Glibc
import Logging
import Posix
import RuleHost
import SessionEngine
import Synchronization

/// Keeps a rule module's crash or hang from becoming a crash loop (docs/RELIABILITY.md,
/// "Module faults"). It maps `rule-call.marker` in the state directory (MAP_SHARED: what
/// the ingest thread writes there outlives the process) and installs the fatal-signal
/// handler that marks a crash in a rule call. At start it reads the marker the last run
/// left: a crash or hang in a rule names the culprit in the log and puts that rule in
/// quarantine (`quarantine.json`), until a reload or `quarantine: false` in the configuration.
/// Both files are read back bounded (`RuleCallMarkerFile`, `QuarantineFile`): one that is not
/// what the daemon writes is refused in one line naming the file and the field, set aside
/// (`PATH.refused-<UTC time>`) and read as absent.
/// Its own system calls go through `Posix`; what the signal handler does is C only (`CRuleGuard`).
///
/// Sendable: the quarantine is in a `Mutex` (the ingest thread uses it: init, status,
/// `clearQuarantine`); other threads (the rule watchdog, the stop deadline) use only `marker`,
/// kept as its address, through CRuleGuard's atomic operations, and the `let` names.
final class RuleFaultGuard: Sendable {
    /// One rule in quarantine.
    struct Quarantined: Codable, Sendable, Equatable {
        var rule: String
        var module: String
        /// `crashed (SIGSEGV)` or `hung (over 1000 ms)`.
        var fault: String
        /// The event it was judging: type, ts, session.
        var event: String
        /// When it was put in quarantine (ms since the epoch).
        var since: Int64
    }

    static let markerFileName = "rule-call.marker"
    static let quarantineFileName = "quarantine.json"

    /// The marker the engine writes around each rule call.
    var marker: UnsafeMutablePointer<mw_marker> {
        UnsafeMutablePointer(bitPattern: markerAddress)!
    }
    /// Where the marker is mapped: shared by the threads, read and written through atomic operations.
    private let markerAddress: UInt
    /// Rules in quarantine now, by id.
    var quarantined: [String: Quarantined] {
        quarantine.withLock { $0 }
    }
    private let quarantine = Mutex<[String: Quarantined]>([:])
    private let quarantinePath: String?
    private let logger: Logger
    private let clock: DaemonClock
    private let names: [(module: String, rule: String)]

    /// Maps the marker in `directory` (nil: an in-memory marker, no persistence), reads what the
    /// last run left (a rule it names is in quarantine from now on `clock`), and installs the
    /// signal handler. Call on the thread that runs the rules.
    init(directory: String?, catalog: RuleCatalog, quarantineEnabled: Bool, clock: DaemonClock, logger: Logger) {
        self.logger = logger
        self.clock = clock
        names = catalog.rules.map { ($0.module, $0.id) }
        quarantinePath = directory.map { $0 + "/" + Self.quarantineFileName }
        let size = Int(MW_MARKER_NAMES_OFFSET) + max(names.count, 1) * Int(MW_MARKER_NAME_BYTES)
        var mapped: UnsafeMutableRawPointer?
        var leftover: Quarantined?
        if let directory {
            let path = directory + "/" + Self.markerFileName
            leftover = Self.readLeftover(path: path, clock: clock, logger: logger)
            do {
                mapped = try Self.map(path: path, size: size)
            } catch {
                logger.warning(
                    "could not map the rule-call marker; a module crash will not be traced to its rule",
                    metadata: [
                        "path": "\(path)", "error": "\(error)",
                    ]
                )
            }
        }
        let base = mapped ?? UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        let marker = base.bindMemory(to: mw_marker.self, capacity: 1)
        markerAddress = UInt(bitPattern: marker)
        marker.pointee.magic = MW_MARKER_MAGIC
        marker.pointee.version = MW_MARKER_VERSION
        marker.pointee.rule_count = UInt32(names.count)
        for (index, name) in names.enumerated() {
            let slot = base + Int(MW_MARKER_NAMES_OFFSET) + index * Int(MW_MARKER_NAME_BYTES)
            Self.put(name.module, at: slot, capacity: Int(MW_MARKER_MODULE_BYTES) - 1)
            Self.put(
                name.rule,
                at: slot + Int(MW_MARKER_MODULE_BYTES),
                capacity: Int(MW_MARKER_NAME_BYTES - MW_MARKER_MODULE_BYTES) - 1
            )
        }
        do {
            try Posix.call("sigaction") { [marker] in mw_fault_handlers_install(marker) }
        } catch {
            logger.warning(
                "could not install the fatal-signal handler; a module crash will not be traced to its rule",
                metadata: ["error": "\(error)"]
            )
        }
        // A quarantine names a rule by module and id: a rule of that id in another module
        // (the module set changed since) is not the one that failed.
        let loaded = Set(names.map { Self.key(module: $0.module, rule: $0.rule) })
        let (entries, refusedSome) = readQuarantine()
        quarantine.withLock { $0 = entries }
        if refusedSome { writeQuarantine() }
        for entry in quarantined.values.sorted(by: { $0.rule < $1.rule })
        where !loaded.contains(Self.key(module: entry.module, rule: entry.rule)) {
            logger.notice(
                "a quarantined rule is not loaded now; its quarantine ends",
                metadata: [
                    "module": "\(entry.module)", "rule": "\(entry.rule)", "fault": "\(entry.fault)",
                ]
            )
            quarantine.withLock { $0[entry.rule] = nil }
            writeQuarantine()
        }
        if let leftover, !loaded.contains(Self.key(module: leftover.module, rule: leftover.rule)) {
            logger.error(
                "the last run ended in a rule module fault; that module or rule is not loaded now, so nothing is quarantined",
                metadata: [
                    "module": "\(leftover.module)", "rule": "\(leftover.rule)", "fault": "\(leftover.fault)",
                    "event": "\(leftover.event)",
                ]
            )
        } else if let leftover {
            logger.error(
                "the last run ended in a rule module fault; the rule is quarantined until a reload",
                metadata: [
                    "module": "\(leftover.module)", "rule": "\(leftover.rule)", "fault": "\(leftover.fault)",
                    "event": "\(leftover.event)",
                ]
            )
            if quarantineEnabled {
                quarantine.withLock { $0[leftover.rule] = leftover }
                writeQuarantine()
            }
        }
        if !quarantineEnabled && !quarantined.isEmpty {
            logger.notice(
                "quarantine: false in the configuration; quarantined rules run again",
                metadata: [
                    "rules": "\(quarantined.keys.sorted().joined(separator: ","))"
                ]
            )
            clearQuarantine()
        }
        for entry in quarantined.values.sorted(by: { $0.rule < $1.rule }) where entry != leftover {
            logger.warning(
                "rule in quarantine since an earlier fault; a reload (SIGHUP) lets it run again",
                metadata: [
                    "module": "\(entry.module)", "rule": "\(entry.rule)", "fault": "\(entry.fault)",
                ]
            )
        }
    }

    /// The quarantine as the engine takes it: rule id to one line of reason.
    var engineQuarantine: [String: String] {
        quarantined.mapValues { "\($0.fault) in module \($0.module) on \($0.event)" }
    }

    /// Module and rule as the marker keeps them (a module name cut to its slot).
    private static func key(module: String, rule: String) -> String {
        String(decoding: module.utf8.prefix(Int(MW_MARKER_MODULE_BYTES) - 1), as: UTF8.self) + "/" + rule
    }

    /// Ends the quarantine (a reload): the file goes, every rule runs again.
    func clearQuarantine() {
        let cleared = quarantine.withLock { quarantined in
            defer { quarantined = [:] }
            return !quarantined.isEmpty
        }
        guard cleared else { return }
        guard let quarantinePath else { return }
        do {
            try Posix.unlink(quarantinePath)
        } catch  where error.errno != ENOENT {
            logger.error(
                "could not remove the quarantine file; the next start would quarantine its rules again",
                metadata: [
                    "path": "\(quarantinePath)", "error": "\(error)",
                ]
            )
        } catch {}
    }

    /// Marks the running call (if it is still `generation`'s) as hung; the culprit, or nil.
    func markHung(generation: UInt64) -> (module: String, rule: String, event: String)? {
        guard mw_marker_mark(marker, generation, MW_MARKER_HUNG) == 1 else { return nil }
        return culprit()
    }

    /// The rule and event of the call running now.
    func culprit() -> (module: String, rule: String, event: String) {
        let index = Int(marker.pointee.rule)
        let name: (module: String, rule: String) = index < names.count ? names[index] : ("?", "?")
        return (name.module, name.rule, Self.eventText(marker))
    }

    // MARK: - Files

    /// The marker file at `path`, `size` bytes, mapped shared; its descriptor is closed (the mapping stays).
    private static func map(path: String, size: Int) throws(PosixError) -> UnsafeMutableRawPointer {
        let descriptor = try Posix.open(path, O_RDWR | O_CREAT, mode: 0o600)
        defer { try? Posix.close(descriptor) }
        try Posix.truncate(descriptor, to: size)
        return try Posix.mapShared(descriptor, size: size)
    }

    /// What the marker file left by the previous run says (`RuleCallMarkerFile`), when it ended
    /// in a rule's crash or hang; a marker refused is logged in one line naming its field, set
    /// aside, and names no rule.
    private static func readLeftover(path: String, clock: DaemonClock, logger: Logger) -> Quarantined? {
        do {
            guard case .fault(let module, let rule, let fault, let event) = try RuleCallMarkerFile.read(path) else {
                return nil
            }
            return Quarantined(rule: rule, module: module, fault: fault, event: event, since: clock.milliseconds())
        } catch {
            setAside(
                error,
                what: "the rule-call marker",
                consequence: "no rule is quarantined for how the last run ended",
                clock: clock,
                logger: logger
            )
            return nil
        }
    }

    /// The quarantine the file holds (`QuarantineFile`), by rule, and whether an entry of it was
    /// refused (each logged in one line naming its field; the file is then written again without
    /// it). A file refused as a whole is logged in one line, set aside, and quarantines nothing.
    private func readQuarantine() -> (entries: [String: Quarantined], refusedSome: Bool) {
        guard let quarantinePath else { return ([:], false) }
        let contents: QuarantineFile.Contents
        do {
            guard let read = try QuarantineFile.read(quarantinePath) else { return ([:], false) }
            contents = read
        } catch {
            Self.setAside(
                error,
                what: "the quarantine file",
                consequence: "no rule is in quarantine from it",
                clock: clock,
                logger: logger
            )
            return ([:], false)
        }
        for refused in contents.refused {
            logger.error(
                "an entry of the quarantine file was refused: \(refused.refusal.field) \(refused.refusal.why); that rule is not in quarantine",
                metadata: [
                    "path": "\(quarantinePath)", "field": "\(refused.refusal.field)",
                    "module": "\(refused.entry.module)", "rule": "\(refused.entry.rule)",
                ]
            )
        }
        let entries = Dictionary(contents.entries.map { ($0.rule, $0) }, uniquingKeysWith: { first, _ in first })
        return (entries, !contents.refused.isEmpty)
    }

    /// Logs `refusal` in one line naming the file and its field, and moves the file to
    /// `PATH.refused-<UTC time>` (kept, never deleted), so that the next start does not read it again.
    private static func setAside(
        _ refusal: StateFileRefusal,
        what: String,
        consequence: String,
        clock: DaemonClock,
        logger: Logger
    ) {
        let aside = refusal.path + ".refused-" + clock.utcStamp()
        var metadata: Logger.Metadata = ["path": "\(refusal.path)", "field": "\(refusal.field)"]
        if let underlying = refusal.underlying { metadata["error"] = "\(underlying)" }
        do {
            try Posix.rename(refusal.path, aside)
            metadata["set_aside_as"] = "\(aside)"
        } catch {
            metadata["set_aside_error"] = "\(error)"
        }
        logger.error(
            "\(what) was refused, not read: \(refusal.field) \(refusal.why); \(consequence)",
            metadata: metadata
        )
    }

    private func writeQuarantine() {
        guard let quarantinePath else { return }
        let entries = quarantined.values.sorted { $0.rule < $1.rule }
        guard let data = try? QuarantineFile.encoded(entries) else { return }
        do {
            try AtomicFile.write(data, to: quarantinePath)
        } catch {
            logger.error(
                "could not write the quarantine file; the quarantine lasts until this process ends",
                metadata: [
                    "path": "\(quarantinePath)", "error": "\(error)",
                ]
            )
        }
    }

    private static func eventText(_ marker: UnsafeMutablePointer<mw_marker>) -> String {
        RuleCallMarkerFile.eventText(marker.pointee)
    }

    private static func put(_ text: String, at slot: UnsafeMutableRawPointer, capacity: Int) {
        let bytes = Array(text.utf8.prefix(capacity))
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { slot.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }
}
