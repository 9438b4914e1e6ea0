import ControlProtocol
import Foundation
import Report
import RuleHost
import SessionEngine

/// Collects what `check` finds: violations as the daemon would publish them, and rejections.
/// The engine writes each violation's JSON straight into the collector's buffer
/// (`ViolationJSONStore`), not into a scratch buffer to be copied. A collector that `keeps`
/// its violations (SARIF, tests) holds them all in that buffer; one that does not hands each to
/// `onViolation` and counts it, and its memory stays flat however long the stream.
final class CheckCollector: ViolationWritingOutput {
    /// Where an event came from: the file as named, and its line (from 1).
    struct Location {
        let file: String
        let line: Int
    }

    /// A violation found and kept (`keeps`).
    struct Found {
        /// Where its JSON is.
        let store: ViolationJSONStore
        let jsonRange: Range<Int>
        let rule: String
        let severity: Severity
        let app: String
        /// Where its session id is (in the store: made a `String` only when asked for).
        let sessionRange: Range<Int>
        let ts: Int64
        /// The line of the event that triggered it.
        let location: Location?
        /// The session's id.
        var session: String { store.session(sessionRange) }
        /// Calls `body` with the violation's JSON (valid only during the call).
        func withJSON<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try store.withBytes(jsonRange, body)
        }
        /// The violation's JSON as a value (for text and SARIF output only).
        var object: JSONValue { withJSON(CheckCollector.object) }
        /// The violation's message.
        var message: String { CheckCollector.message(in: object) }
        /// The violation's suggestion, nil when it has none.
        var suggestion: String? { CheckCollector.suggestion(in: object) }
    }

    /// A violation's JSON as a value (`{}` if it does not parse, which the engine's JSON always does).
    static func object(_ json: UnsafeRawBufferPointer) -> JSONValue {
        (try? JSONParser.parse(Array(json))) ?? .object([:])
    }

    /// The message of a violation's JSON value (`object`).
    static func message(in violation: JSONValue) -> String { violation["message"]?.stringValue ?? "" }

    /// The suggestion of a violation's JSON value (`object`), nil when it has none.
    static func suggestion(in violation: JSONValue) -> String? { violation["suggestion"]?.stringValue }

    // Written and read only on `check`'s one thread, one access at a time: no dynamic exclusivity
    // check per violation.
    @exclusivity(unchecked) private(set) var violations: [Found] = []
    /// Whether `violations` holds every violation found (else only `severities` counts them).
    let keeps: Bool
    /// The violations found, by severity.
    @exclusivity(unchecked) private(set) var severities = SeverityCounts()
    private(set) var diagnostics: [String: Int] = [:]
    private(set) var diagnosticLines: [String] = []
    /// The file of the event being judged now (nil: none).
    @exclusivity(unchecked) var file: String?
    /// Its line (set per line: an integer, so that a line costs no reference counting).
    @exclusivity(unchecked) var line = 0
    /// The event being judged now.
    var location: Location? { file.map { Location(file: $0, line: line) } }
    /// Called for each violation as it is found (for streaming output), with its JSON; both valid
    /// only during the call. `location` is the event's.
    @exclusivity(unchecked) var onViolation: ((borrowing EmittedViolation, UnsafeRawBufferPointer) -> Void)?
    /// Every violation's JSON, one after another (only the current one's when it does not `keep`).
    private let store = ViolationJSONStore()

    /// A collector that keeps every violation in `violations`, or (`keeping: false`) only counts them.
    init(keeping: Bool = true) {
        keeps = keeping
    }

    func emit(_ violation: EmittedViolation) {
        emit(violation) { $0.raw(violation.json) }
    }

    func emit(_ violation: EmittedViolation, writingJSON write: (inout JSONBuffer) -> Void) {
        severities.add(violation.severity)
        guard keeps else {
            // Printed as it comes: the JSON lives in the store until the next violation.
            store.reset()
            let range = store.append(write)
            if let onViolation { store.withBytes(range) { onViolation(violation, $0) } }
            return
        }
        let found = Found(
            store: store,
            jsonRange: store.append(write),
            rule: violation.rule,
            severity: violation.severity,
            app: violation.app,
            sessionRange: store.appendSession(violation.session),
            ts: violation.ts,
            location: location
        )
        violations.append(found)
        if let onViolation { found.withJSON { onViolation(violation, $0) } }
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        diagnostics[reason.rawValue, default: 0] += 1
        if diagnosticLines.count < 20 {
            let place = location.map { "\($0.file):\($0.line): " } ?? ""
            diagnosticLines.append("\(place)\(reason.rawValue): \(detail())\(session.map { " (session \($0))" } ?? "")")
        }
    }
}

/// The JSON of every violation `check` found, one after another in one buffer, and their
/// session ids in another.
final class ViolationJSONStore {
    // One thread, one access at a time: no dynamic exclusivity check per violation.
    @exclusivity(unchecked) private var buffer = JSONBuffer(capacity: 1 << 16)
    @exclusivity(unchecked) private var sessions: [UInt8] = []

    /// Forgets every violation's JSON and session id, keeping the buffers.
    func reset() {
        buffer.reset()
        sessions.removeAll(keepingCapacity: true)
    }

    /// Appends a session id; returns where it is.
    func appendSession(_ id: UnsafeRawBufferPointer) -> Range<Int> {
        let start = sessions.count
        sessions.append(contentsOf: id)
        return start..<sessions.count
    }

    /// The session id at `range`.
    func session(_ range: Range<Int>) -> String {
        sessions.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Appends what `write` writes; returns where it is.
    func append(_ write: (inout JSONBuffer) -> Void) -> Range<Int> {
        let start = buffer.count
        write(&buffer)
        return start..<buffer.count
    }

    /// Calls `body` with the bytes of `range` (valid only during the call).
    func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}
