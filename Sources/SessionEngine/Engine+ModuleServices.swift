import AlertText
import ModalwatchABI
import RuleHost

/// The module services of ABI 1.2 during a rule call: `mw_host.log` and `mw_host.module_error`.
/// Neither is on the per-event path of a rule that does not use them.
extension Engine {
    /// The rule a call runs: its descriptor, for the module's runtime and the rule's id.
    private func rule(of frame: RuleCallFrame) -> RuleDescriptor? {
        guard let session = frame.session, let dispatch = frame.dispatch?.pointee else { return nil }
        return session.app.profile.rules[dispatch.ordinal].descriptor
    }

    /// `mw_host.log`: one line into the module's log (rate-limited per module), with the rule and session.
    func moduleLog(_ frame: RuleCallFrame, level: UInt32, message: mw_str) {
        guard let rule = rule(of: frame), let runtime = rule.runtime else { return }
        runtime.log(
            level: level,
            message: ModuleRuntime.text(message),
            context: [
                "rule": rule.id, "session": frame.session?.id.string ?? "-",
            ]
        )
    }

    /// `mw_host.module_error`: counted per module (`status`), logged, and published as
    /// `diag/-/module_error` (diagnostics are rate-limited like every other).
    func moduleError(_ frame: RuleCallFrame, _ detail: mw_str) {
        guard let rule = rule(of: frame), let runtime = rule.runtime, let session = frame.session else { return }
        let text = ModuleRuntime.text(detail)
        runtime.recordError(text, context: ["rule": rule.id, "session": session.id.string])
        statistics.moduleErrors += 1
        output.emitDiagnostic(.moduleError, app: nil, session: session.id.string) {
            "module \(rule.module), rule \(rule.id): \(text)"
        }
    }

    /// `mw_host.skip_language` (ABI 1.5): the rule cannot judge the event's texts in their
    /// language; counted by rule and language, as the English rules the host does not call.
    func skipLanguage(_ frame: RuleCallFrame) {
        guard let dispatch = frame.dispatch, let event = frame.event else { return }
        languageSkips.add(
            rule: Int(dispatch.pointee.catalogIndex),
            language: EventLanguage.subtagKey(of: event.pointee.locale)
        )
    }
}
