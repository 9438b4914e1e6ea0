import ModalwatchABI
import RuleHost

/// The services a rule calls back into during `on_event` (`mw_host`).
extension Engine {
    static func makeHost() -> mw_host {
        mw_host(
            struct_size: UInt32(MemoryLayout<mw_host>.size),
            abi_minor: UInt32(MW_ABI_MINOR),
            counter_add: { context, scope, key, delta in
                Engine.with(context, 0) { $0.counterAdd($1, scope: scope, key: key, delta: delta) }
            },
            window_push: { context, key, ts, window, keep in
                Engine.with(context, 0) { $0.windowPush($1, key: key, ts: ts, window: window, keep: keep) }
            },
            report: { context, report in
                guard let report else { return }
                Engine.with(context, ()) { _ = $0.report($1, report) }
            },
            should_report: { context, subject, key in
                Engine.with(context, false) { $0.shouldReport($1, subject: subject, key: key) } ? 1 : 0
            },
            log: { context, level, message in
                Engine.with(context, ()) { $0.moduleLog($1, level: level, message: message) }
            },
            module_error: { context, detail in
                Engine.with(context, ()) { $0.moduleError($1, detail) }
            },
            words: { context, text, out in
                guard let out else { return 0 }
                return Engine.with(context, false) { $0.words($1, of: text, into: out) } ? 1 : 0
            },
            reserved_services: (nil, nil, nil),
            report_written: { context, report, write, state in
                guard let report, let write else { return 0 }
                return Engine.with(context, false) {
                    $0.report($1, report, written: WrittenParts(write: write, state: state))
                } ? 1 : 0
            },
            write_text: { writer, text in Engine.writer(writer)?.pointee.text(text) },
            write_int: { writer, value in Engine.writer(writer)?.pointee.integer(value) },
            write_key: { writer, key in Engine.writer(writer)?.pointee.key(key) },
            write_literal: { writer, literal in Engine.writer(writer)?.pointee.literal(literal) },
            write_json: { writer, json in Engine.writer(writer)?.pointee.wholeJSON(json) },
            reserved_writers: (nil, nil),
            skip_language: { context in
                Engine.with(context, ()) { $0.skipLanguage($1) }
            }
        )
    }

    /// The host's writer behind a module's `mw_writer` (ABI 1.4).
    @inline(__always)
    private static func writer(_ writer: OpaquePointer?) -> UnsafeMutablePointer<ViolationWriter>? {
        writer.map { UnsafeMutablePointer<ViolationWriter>($0) }
    }

    /// Runs `body` on the engine and the call a rule call's context names (its `RuleCallFrame`;
    /// the engine unretained: it is judging, so it is alive), or returns `fallback` without one.
    @inline(__always)
    private static func with<Result>(
        _ context: OpaquePointer?,
        _ fallback: Result,
        _ body: (Engine, RuleCallFrame) -> Result
    ) -> Result {
        guard let context else { return fallback }
        let frame = UnsafePointer<RuleCallFrame>(context).pointee
        return frame.engine._withUnsafeGuaranteedRef { body($0, frame) }
    }

    /// `mw_host.words`: the words of one of the current event's texts, read once per event.
    func words(_ frame: RuleCallFrame, of text: mw_str, into out: UnsafeMutablePointer<mw_words>) -> Bool {
        guard let event = frame.event else { return false }
        return eventWords.tableWords(of: text, in: event, eventSerial: statistics.eventsJudged, into: out)
    }

    func counterAdd(_ frame: RuleCallFrame, scope: UInt32, key: UInt64, delta: Int64) -> Int64 {
        guard let current = frame.session, let dispatch = frame.dispatch?.pointee else { return 0 }
        let k = Hashing.ruleKey(seed: dispatch.seed, key)
        return scope == MW_SCOPE_APP ? current.withApp { appCounterAdd($0, k, delta) } : current.counterAdd(k, delta)
    }

    func windowPush(_ frame: RuleCallFrame, key: UInt64, ts: Int64, window: Int64, keep: UInt32) -> UInt32 {
        guard let current = frame.session, let dispatch = frame.dispatch?.pointee else { return 0 }
        let k = Hashing.ruleKey(seed: dispatch.seed, key)
        let limit = Int(max(1, min(keep, 4096)))
        return UInt32(current.windowPush(ts, key: k, window: window, limit: limit))
    }

    /// `mw_host.report`, and with `written` `mw_host.report_written` (ABI 1.4: the module writes
    /// the message, evidence and suggestion through a writer); returns whether it went out.
    func report(_ frame: RuleCallFrame, _ reportPointer: UnsafePointer<mw_report>, written: WrittenParts? = nil) -> Bool
    {
        guard let current = frame.session, let dispatch = frame.dispatch?.pointee, let eventPointer = frame.event else {
            return false
        }
        let session = current
        let report = Self.read(reportPointer, withSuggestion: written != nil || dispatch.template.reportsSuggestion)
        let event = eventPointer.pointee
        let subject = Self.bytes(report.subject)
        let key = report.key.ptr != nil ? Self.bytes(report.key) : subject
        // A written report (ABI 1.4) is judged as `should_report` then `report` judge one: the rate
        // limit before the discipline records the firing, and a report the discipline holds back
        // (which formatted nothing) is not counted in `reports_suppressed`.
        let asked = written != nil
        let allowed = discipline(
            dispatch,
            session: session,
            ts: event.ts,
            subject: subject,
            key: key,
            record: !asked,
            quietMs: report.quiet_ms
        )
        guard allowed else {
            if !asked { statistics.reportsSuppressed += 1 }
            return false
        }
        guard withinRate(session.app, rule: Int(dispatch.catalogIndex), ts: event.ts) else {
            let refusal = (call: ruleCallSerial, report: Self.reportHash(subject: subject, key: key))
            // A report `should_report` already refused in this call is counted once.
            if refusal != lastRateRefusal {
                if asked { lastRateRefusal = refusal }
                holdBack(session.app, rule: Int(dispatch.catalogIndex))
            }
            return false
        }
        if asked {
            _ = discipline(
                dispatch,
                session: session,
                ts: event.ts,
                subject: subject,
                key: key,
                record: true,
                quietMs: report.quiet_ms
            )
        }
        let template = dispatch.template
        let ids = violationIDs(report, event: event, session: session, template: template, subject: subject, key: key)
        statistics.violations += 1
        session.violations += 1
        let observed = self.observed
        var badEvidence = false
        topic.withBytes { topicBytes in
            func violation(json: UnsafeRawBufferPointer) -> EmittedViolation {
                session.withApp { app in
                    EmittedViolation(
                        topic: topicBytes,
                        json: json,
                        template: template,
                        app: app,
                        session: session.id.buffer,
                        ts: event.ts,
                        observed: observed,
                        idHigh: ids.idHigh,
                        idLow: ids.idLow,
                        fingerprint: ids.fingerprint
                    )
                }
            }
            if let writingOutput {
                // Written once, straight into the output's buffer (the daemon's hand-over batch).
                writingOutput.emit(violation(json: UnsafeRawBufferPointer(start: nil, count: 0))) { buffer in
                    badEvidence = Self.writeObject(
                        into: &buffer,
                        report: report,
                        event: event,
                        session: session,
                        template: template,
                        subject: subject,
                        observed: observed,
                        ids: (ids.idHigh, ids.idLow, ids.fingerprint),
                        written: written
                    )
                }
            } else {
                json.reset()
                badEvidence = Self.writeObject(
                    into: &json,
                    report: report,
                    event: event,
                    session: session,
                    template: template,
                    subject: subject,
                    observed: observed,
                    ids: (ids.idHigh, ids.idLow, ids.fingerprint),
                    written: written
                )
                json.withBytes { output.emit(violation(json: $0)) }
            }
        }
        if badEvidence { statistics.badEvidence += 1 }
        return true
    }

    /// The module's report: all of it from a module built against ABI 1.3 or later; from an
    /// older one only the part its `mw_report` has (the rest, `suggestion`, stays absent).
    @inline(__always)
    private static func read(_ pointer: UnsafePointer<mw_report>, withSuggestion: Bool) -> mw_report {
        guard !withSuggestion else { return pointer.pointee }
        var report = mw_report()
        withUnsafeMutableBytes(of: &report) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: oldReportSize))
        }
        return report
    }

    /// The size of `mw_report` before ABI 1.3 added `suggestion`.
    private static let oldReportSize = MemoryLayout<mw_report>.offset(of: \mw_report.suggestion)!

    /// Whether the rule's firing discipline lets a report with this subject and key through
    /// now; with `record`, it also marks it as fired (or starts the quiet window).
    private func discipline(
        _ dispatch: RuleProfile.Dispatch,
        session: Session,
        ts: Int64,
        subject: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer,
        record: Bool,
        quietMs: Int64
    ) -> Bool {
        func once(_ value: UInt64) -> Bool {
            record ? session.fire(value) : !session.hasFired(value)
        }
        switch dispatch.fire {
        case .oncePerSubject:
            return once(Hashing.ruleKey(seed: dispatch.seed, Hashing.fnv1a(subject)))
        case .oncePerKey:
            return once(Hashing.ruleKey(seed: dispatch.seed, Hashing.fnv1a(key) ^ 0x6b6579))
        case .oncePerSession:
            return once(Hashing.ruleKey(seed: dispatch.seed, 0x7365_7373_696f_6e))
        case .oncePerAppValue:
            return appFiring(session.app, Hashing.ruleKey(seed: dispatch.seed, Hashing.fnv1a(key)), record: record)
        case .oncePerWindow:
            if let quiet = session.quietUntil(dispatch.seed), ts < quiet { return false }
            if record { session.setQuiet(dispatch.seed, until: ts.addingSaturated(max(quietMs, 0))) }
            return true
        case .everyTime:
            return true
        }
    }

    /// `mw_host.should_report`: would a report pass the discipline and the rate limit now?
    func shouldReport(_ frame: RuleCallFrame, subject: mw_str, key: mw_str) -> Bool {
        guard let current = frame.session, let dispatch = frame.dispatch?.pointee, let event = frame.event else {
            return false
        }
        let subjectBytes = Self.bytes(subject)
        let keyBytes = key.ptr != nil ? Self.bytes(key) : subjectBytes
        let allowed = discipline(
            dispatch,
            session: current,
            ts: event.pointee.ts,
            subject: subjectBytes,
            key: keyBytes,
            record: false,
            quietMs: 0
        )
        guard allowed else { return false }
        let rule = Int(dispatch.catalogIndex)
        let full =
            current.withApp { app in
                rateCount(app, rule: rule, second: Self.eventSecond(event.pointee.ts))
            } >= configuration.maxViolationsPerRulePerSecond
        guard full else { return true }
        // A report the rate limit holds back: counted here, since a rule that asks first never reports it.
        let refusal = (call: ruleCallSerial, report: Self.reportHash(subject: subjectBytes, key: keyBytes))
        if refusal != lastRateRefusal {
            lastRateRefusal = refusal
            holdBack(current.app, rule: rule)
        }
        return false
    }

    /// The whole second of event time `ts` falls in (rounding down, negative times too).
    static func eventSecond(_ ts: Int64) -> Int64 { ts >= 0 ? ts / 1000 : (ts - 999) / 1000 }

    /// The violations of `rule` in `app` let through in event-time second `second`.
    private func rateCount(_ app: AppState, rule: Int, second: Int64) -> Int {
        let secondKey = UInt64(rule) &* 2 &+ 1
        guard app.rateMap.value(secondKey) == second else { return 0 }
        return Int(app.rateMap.value(secondKey &+ 1) ?? 0)
    }

    /// The per-app, per-rule rate limit, counted per second of event time: whether one more
    /// violation of `rule` in `app` goes through (then it is counted).
    private func withinRate(_ app: AppState, rule: Int, ts: Int64) -> Bool {
        let second = Self.eventSecond(ts)
        let count = rateCount(app, rule: rule, second: second)
        guard count < configuration.maxViolationsPerRulePerSecond else { return false }
        let secondKey = UInt64(rule) &* 2 &+ 1
        app.rateMap.set(secondKey, second)
        app.rateMap.set(secondKey &+ 1, Int64(count + 1))
        return true
    }

    /// Counts one violation of `rule` in `app` held back by the rate limit: in total, by rule and by app.
    private func holdBack(_ app: AppState, rule: Int) {
        statistics.violationsRateLimited += 1
        heldByRule[rule] += 1
        app.violationsHeld += 1
        heldBackApps.record(app)
    }

    /// Tells one report from another within a rule call: its subject and key.
    private static func reportHash(subject: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) -> UInt64 {
        Hashing.fnv1a(subject) &* 0x9E37_79B9_7F4A_7C15 ^ Hashing.fnv1a(key)
    }

    static func bytes(_ string: mw_str) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: string.ptr, count: string.ptr == nil ? 0 : string.len)
    }
}
