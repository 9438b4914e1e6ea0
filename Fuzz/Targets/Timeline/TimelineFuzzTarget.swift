import ByteBasics
import ControlProtocol
import EventDecoding
import Foundation
import ModalwatchABI
import ModalwatchTesting
import Report
import RuleHost
import SessionEngine

@testable import DaemonCore

/// Fuzzes every reader of event and arrival times with random event streams: the input is a
/// program (`TimelineProgram`) of events of a few sessions and apps, at times that jump anywhere
/// (backwards, to 0, to the end of year 9999, past it, to ±2^63), arriving at wall-clock times that
/// step anywhere too. Each event goes through the real `EventPipeline` with the shipped rule
/// modules (the decoder, the engine, the rules), the report's model, and, at the end, the control
/// replies: `session` for each session (live or from the journal, its snapshot's times also set to
/// the program's extremes, as an older daemon's snapshot may hold them) and `sessions` in every
/// order, both encoded as the control socket sends them; the report's model also gets violations
/// at the program's raw times (as a history written before the decoder's range holds them) and
/// its page is rendered. Nothing may trap, and:
///
/// - the decoder accepts a `ts` only inside `EventTime`'s range, and an `app` only without `/`,
///   space or control characters; every violation topic has exactly three parts;
/// - every age in a reply is >= 0; the report's time series has at most `maxSeriesBuckets` buckets
///   and counts every violation once.
final class TimelineFuzzTarget {
    /// The one instance: libFuzzer calls from one thread.
    nonisolated(unsafe) static let shared = TimelineFuzzTarget()

    private let catalog: RuleCatalog
    private let rules: [ReportRule]

    private init() {
        catalog = FuzzEnvironment.catalog()
        rules = catalog.rules.map(ReportRule.init)
    }

    func run(_ input: UnsafeRawBufferPointer) {
        var program = TimelineProgram(input)
        let output = TimelineOutput()
        let pipeline = EventPipeline(catalog: catalog, configuration: .init(), output: output)
        let model = ReportModel(rules: rules)
        let decoder = EventDecoder()
        var sessions = Set<String>()
        var times: [Int64] = []

        while let step = program.next() {
            sessions.insert(step.session)
            times.append(step.ts)
            let line = Array(step.json.utf8)
            var accepted = false
            decoder.decode(line) { item in
                switch item {
                case .event(let event):
                    accepted = true
                    FuzzCheck.require(
                        EventTime.minMs...EventTime.maxMs ~= event.pointee.ts,
                        "accepted ts \(event.pointee.ts)"
                    )
                    if let app = TimelineProgram.string(event.pointee.app) {
                        FuzzCheck.require(
                            !app.contains("/") && !app.contains(" ")
                                && !app.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F) ~= $0.value },
                            "accepted app \(app)"
                        )
                    }
                    if let end = model.observe(event) { model.endSession(end) }
                case .rejected(let rejection):
                    FuzzCheck.require(!rejection.detail.contains("\n"), "rejection detail of more than one line")
                }
            }
            let expectAccepted = step.ts >= 0 && step.ts <= EventTime.maxMs && TimelineProgram.isTopicSafe(step.app)
            FuzzCheck.require(accepted == expectAccepted, "decoder verdict \(accepted) for \(step.json)")
            line.withUnsafeBytes { pipeline.process(payload: $0, observed: step.observed) }
            for violation in output.take() { model.add(violation) }
            if program.wantsIdleRelease() { pipeline.engine.releaseIdleSessions(now: program.time(), limit: 100) }
        }
        // A history written before the decoder's range: violations at any time.
        for (n, ts) in times.enumerated() {
            model.add(
                ReportViolation(
                    rule: "fuzz-rule",
                    severity: .warning,
                    app: "com.fuzz",
                    session: "H\(n % 3)",
                    ts: ts,
                    subject: nil
                )
            )
        }
        checkReport(model)
        checkReplies(pipeline.engine, sessions: sessions, program: &program, times: times)
    }

    private func checkReport(_ model: ReportModel) {
        let series = model.time.series()
        FuzzCheck.require(series.buckets.count <= model.time.maxSeriesBuckets, "\(series.buckets.count) time buckets")
        let counted = series.buckets.reduce(0) { $0 + $1.counts.total }
        FuzzCheck.require(
            counted == model.violations,
            "time buckets count \(counted) of \(model.violations) violations"
        )
        let source = ReportSource(kind: .history, names: ["fuzz"], generated: Int64.max)
        let html = HTMLReport(model: model, source: source).render()
        FuzzCheck.require(html.hasPrefix("<!DOCTYPE html>"), "the report page")
    }

    private func checkReplies(_ engine: Engine, sessions: Set<String>, program: inout TimelineProgram, times: [Int64]) {
        let extremes = times.isEmpty ? [0] : times
        for id in sessions.sorted() {
            let copy = engine.continueJournalCopy(engine.startJournalCopy(session: id)) { false }
            guard let copy else { continue }
            var snapshot = engine.sessionSnapshot(id: id)
            // An older daemon's snapshot may hold any time.
            if var changed = snapshot, program.wantsExtremeSnapshot() {
                changed.lastTs = extremes[program.index(extremes.count)]
                changed.startedTs = extremes[program.index(extremes.count)]
                changed.lastObserved = extremes[program.index(extremes.count)]
                for i in changed.stack.indices { changed.stack[i].ts = extremes[program.index(extremes.count)] }
                snapshot = changed
            }
            let parts = SessionReplyParts(
                snapshot: snapshot,
                journalCopy: copy,
                capacity: engine.journal.capacity,
                recorded: Int(clamping: engine.journal.recorded),
                held: engine.journal.count
            )
            let now = program.time()
            guard let reply = try? parts.reply(SessionRequest(id: id), now: now) else { continue }
            FuzzCheck.require(reply.events.allSatisfy { $0.ageMs >= 0 }, "a negative event age")
            FuzzCheck.require((reply.session.stack ?? []).allSatisfy { $0.ageMs >= 0 }, "a negative stack age")
            _ = ControlReply.encode(reply)
        }
        for sort in SessionsRequest.Sort.allCases {
            var listing = SessionRanking(order: sort, limit: 1 + program.index(8))
            let scan = Engine.SessionScan(app: nil)
            var alerts = Engine.JournalAlerts()
            while !scan.finished {
                switch engine.continueScan(scan, shouldStop: { false }) {
                case .sessions(let slice):
                    if listing.alerts == nil { listing.alerts = alerts.index() }
                    listing.add(slice)
                case .alerts(let more): alerts.append(more)
                }
            }
            let page = listing.finish()
            _ = ControlReply.encode(
                SessionsReply(total: listing.total, now: program.time(), sessions: page.sessions, next: page.next?.text)
            )
        }
    }
}

/// The engine's output for the timeline target: the checks of `CollectingOutput`, and the violations
/// kept for the report's model.
final class TimelineOutput: EngineOutput {
    private let checking = CollectingOutput(keepsEverything: false)
    private var found: [ReportViolation] = []

    func emit(_ violation: EmittedViolation) {
        checking.emit(violation)
        FuzzCheck.require(checking.problems.isEmpty, checking.problems.first ?? "")
        let topic = String(decoding: violation.topic, as: UTF8.self)
        FuzzCheck.require(
            topic.split(separator: "/", omittingEmptySubsequences: false).count == 3,
            "violation topic \(topic)"
        )
        found.append(
            ReportViolation(
                rule: violation.rule,
                severity: violation.severity,
                app: violation.app,
                session: String(decoding: violation.session, as: UTF8.self),
                ts: violation.ts,
                subject: nil
            )
        )
    }

    func emitDiagnostic(_ reason: DiagnosticReason, app: String?, session: String?, detail: () -> String) {
        checking.emitDiagnostic(reason, app: app, session: session, detail: detail)
        FuzzCheck.require(checking.problems.isEmpty, checking.problems.first ?? "")
    }

    /// The violations since the last call.
    func take() -> [ReportViolation] {
        defer { found.removeAll(keepingCapacity: true) }
        return found
    }
}
