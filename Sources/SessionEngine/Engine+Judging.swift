import AlertText
import CRuleGuard
import ModalwatchABI
import RuleHost

extension Engine {
    /// Runs every rule that wants this event, with the session as it now stands: its
    /// `mw_session`, kept up to date in the session's record, gets only the parts that
    /// belong to this event (the stack's place, the previous time, a dismissal's copy).
    func judge(
        _ event: UnsafePointer<mw_event>,
        session: Session,
        previousTs: Int64,
        dispatches: UnsafeBufferPointer<RuleProfile.Dispatch>
    ) {
        let type = event.pointee.type
        let isDismissal =
            type == MW_EVENT_ALERT_DISMISSED.rawValue
            || type == MW_EVENT_SHEET_DISMISSED.rawValue
            || type == MW_EVENT_MODAL_DISMISSED.rawValue
            || type == MW_EVENT_POPOVER_DISMISSED.rawValue
        let record = session.record
        record.pointee.view.stack = UnsafeRawPointer(session.stackBase).assumingMemoryBound(to: mw_presentation.self)
        record.pointee.view.previous_ts = previousTs
        if isDismissal {
            record.pointee.view.dismissed = UnsafePointer(dismissedView)
            record.pointee.view.dismissed_title =
                dismissedTitleLength > 0
                ? mw_str(
                    ptr: UnsafeRawPointer(dismissedTitle).assumingMemoryBound(to: CChar.self),
                    len: dismissedTitleLength
                )
                : mw_str(ptr: nil, len: 0)
        } else {
            record.pointee.view.dismissed = nil
            record.pointee.view.dismissed_title = mw_str(ptr: nil, len: 0)
        }
        let edition = session.withApp { $0.profile.edition.rawValue }
        let frame = callFrame
        let context = OpaquePointer(frame)
        frame.pointee.session = session
        frame.pointee.event = event
        let marker = self.marker
        mw_marker_set_event(marker, event.pointee.ts, type, event.pointee.session.ptr, event.pointee.session.len)
        let texts = eventWords.table
        texts.pointee.ready = 0
        withUnsafeMutablePointer(to: &record.pointee.view) { view in
            guard let first = dispatches.baseAddress else { return }
            // What every call of this event shares, written once; each rule's part per call.
            var call = mw_call(
                host: UnsafePointer(host),
                ctx: context,
                event: event,
                session: UnsafePointer(view),
                params: nil,
                rule_index: 0,
                edition: edition,
                module_state: nil,
                param_decls: nil,
                param_count: 0,
                texts_language: 0,
                texts: UnsafePointer(texts)
            )
            for index in 0..<dispatches.count {
                let dispatch = first + index
                if dispatch.pointee.judgesLanguage {
                    // The event's language, decided at the first rule that asks, once for all.
                    if call.texts_language == 0 {
                        let english =
                            event.pointee.locale.ptr == nil && textsAreASCII
                            || EventLanguage.isJudgedAsEnglish(event.pointee.locale, event)
                        call.texts_language = MW_TEXTS_DECIDED | (english ? MW_TEXTS_ENGLISH : 0)
                    }
                    if dispatch.pointee.englishOnly, call.texts_language & MW_TEXTS_ENGLISH == 0 {
                        languageSkips.add(
                            rule: Int(dispatch.pointee.catalogIndex),
                            language: EventLanguage.subtagKey(of: event.pointee.locale)
                        )
                        continue
                    }
                }
                frame.pointee.dispatch = dispatch
                ruleCallSerial &+= 1
                call.params = dispatch.pointee.parameters
                call.rule_index = dispatch.pointee.ruleIndex
                call.module_state = dispatch.pointee.moduleState
                call.param_decls = dispatch.pointee.parameterDeclarations
                call.param_count = dispatch.pointee.parameterCount
                mw_marker_enter(marker, dispatch.pointee.catalogIndex)
                dispatch.pointee.entry(&call)
                mw_marker_leave(marker)
            }
        }
        frame.pointee.event = nil
        frame.pointee.dispatch = nil
        frame.pointee.session = nil
    }
}
