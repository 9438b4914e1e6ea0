import AlertText
import ModalwatchABI

extension Engine {
    /// Applies an event to its session's state (events.md, "The presentation stack").
    /// Returns false when the event is to be ignored (a dismissal of an unknown id).
    func apply(_ event: UnsafePointer<mw_event>, to session: Session) -> Bool {
        switch event.pointee.type {
        case MW_EVENT_SESSION_START.rawValue:
            if event.pointee.device != MW_ABSENT { session.device = event.pointee.device }
            session.locale = locales.number(of: event.pointee.locale)
            if event.pointee.size_class != MW_ABSENT {
                session.sizeClass = event.pointee.size_class
            } else {
                session.sizeClass =
                    session.device == MW_DEVICE_PHONE.rawValue
                    ? Int32(MW_SIZE_COMPACT.rawValue) : Int32(MW_SIZE_REGULAR.rawValue)
            }
        case MW_EVENT_APP_BACKGROUND.rawValue:
            session.foreground = false
        case MW_EVENT_APP_FOREGROUND.rawValue:
            session.foreground = true
        case MW_EVENT_TASK_PROGRESS.rawValue:
            applyTask(event, to: session)
        case MW_EVENT_ALERT_PRESENTED.rawValue, MW_EVENT_SHEET_PRESENTED.rawValue,
            MW_EVENT_MODAL_PRESENTED.rawValue, MW_EVENT_POPOVER_PRESENTED.rawValue:
            present(event, in: session)
        case MW_EVENT_ALERT_DISMISSED.rawValue, MW_EVENT_SHEET_DISMISSED.rawValue,
            MW_EVENT_MODAL_DISMISSED.rawValue, MW_EVENT_POPOVER_DISMISSED.rawValue:
            return dismiss(event, in: session)
        case MW_EVENT_NAV_PUSH.rawValue:
            if !session.stack.isEmpty { session.stack[session.stack.count - 1].navDepth += 1 }
        case MW_EVENT_NAV_POP.rawValue:
            if !session.stack.isEmpty, session.stack[session.stack.count - 1].navDepth > 0 {
                session.stack[session.stack.count - 1].navDepth -= 1
            }
        default:
            break
        }
        return true
    }

    /// Starts or ends the event's task in the session's running tasks. They are a list of at
    /// most 256 id hashes searched in order, not a hash table, so the public hash (FNV-1a) of
    /// the task id costs nothing when chosen: ids that share it are one task of their own session.
    private func applyTask(_ event: UnsafePointer<mw_event>, to session: Session) {
        let task = Hashing.fnv1a(UnsafeRawBufferPointer(start: event.pointee.task.ptr, count: event.pointee.task.len))
        switch event.pointee.task_state {
        case Int32(MW_TASK_STARTED.rawValue):
            if session.runningTaskIndex(of: task) == nil, session.runningTaskCount < 256 {
                session.addRunningTask(task)
            }
        case Int32(MW_TASK_FINISHED.rawValue), Int32(MW_TASK_FAILED.rawValue), Int32(MW_TASK_CANCELLED.rawValue):
            if let i = session.runningTaskIndex(of: task) { session.removeRunningTask(at: i) }
            if event.pointee.task_state == MW_TASK_FINISHED.rawValue { session.lastTaskFinishedTs = event.pointee.ts }
            if event.pointee.task_state == MW_TASK_FAILED.rawValue { session.lastTaskFailedTs = event.pointee.ts }
        default:
            break
        }
    }

    private func present(_ event: UnsafePointer<mw_event>, in session: Session) {
        let kind: UInt32
        switch event.pointee.type {
        case MW_EVENT_ALERT_PRESENTED.rawValue: kind = MW_KIND_ALERT.rawValue
        case MW_EVENT_SHEET_PRESENTED.rawValue: kind = MW_KIND_SHEET.rawValue
        case MW_EVENT_MODAL_PRESENTED.rawValue: kind = MW_KIND_MODAL.rawValue
        default: kind = MW_KIND_POPOVER.rawValue
        }
        if kind != MW_KIND_POPOVER.rawValue { session.presentations += 1 }
        if kind == MW_KIND_ALERT.rawValue { session.alertsPresented += 1 }
        if session.stack.count >= Self.maxStackDepth {
            // A stream that never dismisses: forget the bottom of the stack rather than grow without bound.
            session.removeBottom()
        }
        var entry = StackEntry(kind: kind, ts: event.pointee.ts)
        if kind == MW_KIND_MODAL.rawValue {
            entry.style = event.pointee.style
            entry.transition = event.pointee.transition
            entry.sizeClass = event.pointee.size_class != MW_ABSENT ? event.pointee.size_class : session.sizeClass
            entry.buttonCount = Int32(event.pointee.modal_button_count)
        } else if kind != MW_KIND_POPOVER.rawValue {
            entry.buttonCount = Int32(event.pointee.button_count)
            if kind == MW_KIND_SHEET.rawValue { entry.inPopover = event.pointee.in_popover }
            if let buttons = event.pointee.buttons {
                // The cancel button (rules.md): the first with style cancel, else the first
                // default-style button titled the presentation language's Cancel.
                for i in 0..<Int(event.pointee.button_count) {
                    let style = buttons[i].style
                    if style == MW_BUTTON_CANCEL.rawValue && entry.cancelIndex == MW_ABSENT {
                        entry.cancelIndex = Int32(i)
                    }
                    if style == MW_BUTTON_DESTRUCTIVE.rawValue && entry.destructiveIndex == MW_ABSENT {
                        entry.destructiveIndex = Int32(i)
                    }
                }
                if entry.cancelIndex == MW_ABSENT {
                    for i in 0..<Int(event.pointee.button_count)
                    where buttons[i].style == MW_ABSENT || buttons[i].style == MW_BUTTON_DEFAULT.rawValue {
                        if EventLanguage.isCancelTitle(buttons[i].title, event.pointee.locale) {
                            entry.cancelIndex = Int32(i)
                            break
                        }
                    }
                }
            }
        }
        session.push(entry, id: event.pointee.id, title: event.pointee.title)
    }

    private func dismiss(_ event: UnsafePointer<mw_event>, in session: Session) -> Bool {
        guard let index = session.indexOf(id: event.pointee.id) else {
            statistics.unknownDismissals += 1
            let id = String(
                decoding: UnsafeRawBufferPointer(start: event.pointee.id.ptr, count: event.pointee.id.len),
                as: UTF8.self
            )
            let type = String(
                decoding: UnsafeRawBufferPointer(
                    start: event.pointee.type_name.ptr,
                    count: event.pointee.type_name.len
                ),
                as: UTF8.self
            )
            output.emitDiagnostic(.unknownDismiss, app: session.app.name, session: session.id.string) {
                "\(type) of id '\(id)', which is not on the session's stack; ignored"
            }
            return false
        }
        // Keep a copy of the removed entry (and its id and title) for the rules.
        let entry = session.stack[index]
        let idBytes = entry.idBytes
        var copy = entry.view
        copy.id.len = min(idBytes.count, Self.maxDismissedIDBytes)
        copy.id.ptr = UnsafePointer(UnsafeMutableRawPointer(dismissedID).assumingMemoryBound(to: CChar.self))
        if copy.id.len > 0 {
            UnsafeMutableRawPointer(dismissedID).copyMemory(from: idBytes.baseAddress!, byteCount: copy.id.len)
        }
        let titleBytes = entry.titleBytes
        dismissedTitleLength = titleBytes.count
        if titleBytes.count > 0 {
            UnsafeMutableRawPointer(dismissedTitle).copyMemory(
                from: titleBytes.baseAddress!,
                byteCount: titleBytes.count
            )
        }
        session.pop(downTo: index)
        dismissedView.pointee = copy
        return true
    }
}
