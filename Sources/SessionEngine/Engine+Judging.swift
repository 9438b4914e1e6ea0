import CRuleGuard
import ModalwatchABI
import RuleHost

extension Engine {
    /// Runs every rule that wants this event, with the session as it now stands.
    func judge(_ event: inout mw_event, session: Session, previousTs: Int64, dispatches: UnsafeBufferPointer<RuleProfile.Dispatch>) {
        let stack = session.stack
        let depth = stack.count
        if depth > stackViewCapacity {
            stackViews.deallocate()
            stackViewCapacity = max(depth, stackViewCapacity * 2)
            stackViews = .allocate(capacity: stackViewCapacity)
        }
        if let arena = session.idArena {
            for i in 0..<depth { stackViews[i] = stack[i].view(arena: arena) }
        }
        let isDismissal = event.type == MW_EVENT_ALERT_DISMISSED.rawValue
            || event.type == MW_EVENT_SHEET_DISMISSED.rawValue
            || event.type == MW_EVENT_MODAL_DISMISSED.rawValue
            || event.type == MW_EVENT_POPOVER_DISMISSED.rawValue
        var view = mw_session(
            id: session.idStr, app: session.app.bytes.str,
            device: session.device, size_class: session.sizeClass,
            foreground: session.foreground ? 1 : 0,
            modal_depth: session.modalDepth, max_modal_depth: session.maxModalDepth,
            stack_count: UInt32(depth), stack: UnsafePointer(stackViews),
            started_ts: session.startedTs, last_ts: session.lastTs, previous_ts: previousTs,
            last_user_action_ts: session.lastUserActionTs,
            last_user_action_control: session.lastUserActionControl,
            tasks_running: Int32(session.runningTasks.count),
            last_task_finished_ts: session.lastTaskFinishedTs,
            last_task_failed_ts: session.lastTaskFailedTs,
            events: session.events, alerts_presented: session.alertsPresented,
            presentations: session.presentations,
            dismissed: isDismissal ? UnsafePointer(dismissedView) : nil,
            dismissed_title: isDismissal && dismissedTitleLength > 0
                ? mw_str(ptr: UnsafeRawPointer(dismissedTitle).assumingMemoryBound(to: CChar.self), len: dismissedTitleLength)
                : mw_str(ptr: nil, len: 0))
        let edition = session.app.profile.edition.bit
        let frame = callFrame
        let context = OpaquePointer(frame)
        frame.pointee.session = session
        let marker = self.marker
        mw_marker_set_event(marker, event.ts, event.type, event.session.ptr, event.session.len)
        let texts = eventWords.table
        texts.pointee.ready = 0
        withUnsafePointer(to: &event) { eventPointer in
            withUnsafePointer(to: &view) { sessionPointer in
                frame.pointee.event = eventPointer
                guard let first = dispatches.baseAddress else { return }
                for index in 0..<dispatches.count {
                    let dispatch = first + index
                    frame.pointee.dispatch = dispatch
                    ruleCallSerial &+= 1
                    var call = mw_call(
                        host: UnsafePointer(host), ctx: context, event: eventPointer, session: sessionPointer,
                        params: dispatch.pointee.parameters, rule_index: dispatch.pointee.ruleIndex, edition: edition,
                        module_state: dispatch.pointee.moduleState, param_decls: dispatch.pointee.parameterDeclarations,
                        param_count: dispatch.pointee.parameterCount, reserved: 0, texts: UnsafePointer(texts))
                    mw_marker_enter(marker, dispatch.pointee.catalogIndex)
                    dispatch.pointee.entry(&call)
                    mw_marker_leave(marker)
                }
            }
        }
        frame.pointee.event = nil
        frame.pointee.dispatch = nil
        frame.pointee.session = nil
    }
}
