import ModalwatchABI

extension EventReader {
    /// Puts back as absent the fields that the type of the event last filled in `e` set:
    /// `fill` writes the fields common to every type and then only its own type's, so this
    /// leaves `e` as an absent event would be for everything but the common fields, without
    /// copying a whole event. `e.type` names the type whose fields may be set (`fill` writes
    /// it before any of them; an event that failed after that left at most those).
    @inline(__always)
    static func clearFieldsOfLastType(_ e: UnsafeMutablePointer<mw_event>) {
        switch e.pointee.type {
        case MW_EVENT_SESSION_START.rawValue:
            e.pointee.app_version = mw_str()
            e.pointee.os = mw_str()
            e.pointee.device = MW_ABSENT
            e.pointee.size_class = MW_ABSENT
        case MW_EVENT_USER_ACTION.rawValue:
            e.pointee.control = MW_ABSENT
            e.pointee.label = mw_str()
            e.pointee.destructive = MW_ABSENT
        case MW_EVENT_TASK_PROGRESS.rawValue:
            e.pointee.task = mw_str()
            e.pointee.task_state = MW_ABSENT
        case MW_EVENT_ALERT_PRESENTED.rawValue:
            e.pointee.id = mw_str()
            e.pointee.title = mw_str()
            e.pointee.message = mw_str()
            e.pointee.has_buttons = 0
            e.pointee.buttons = nil
            e.pointee.button_count = 0
            e.pointee.text_field_count = 0
            e.pointee.secure_text_field_count = 0
        case MW_EVENT_ALERT_DISMISSED.rawValue, MW_EVENT_SHEET_DISMISSED.rawValue:
            e.pointee.id = mw_str()
            e.pointee.button = MW_ABSENT
            e.pointee.via = MW_ABSENT
        case MW_EVENT_SHEET_PRESENTED.rawValue:
            e.pointee.id = mw_str()
            e.pointee.title = mw_str()
            e.pointee.message = mw_str()
            e.pointee.has_buttons = 0
            e.pointee.buttons = nil
            e.pointee.button_count = 0
            e.pointee.in_popover = MW_ABSENT
            e.pointee.from_popover = MW_ABSENT
            e.pointee.background = mw_str()
        case MW_EVENT_MODAL_PRESENTED.rawValue:
            e.pointee.id = mw_str()
            e.pointee.style = MW_ABSENT
            e.pointee.transition = MW_ABSENT
            e.pointee.title = mw_str()
            e.pointee.has_buttons = 0
            e.pointee.modal_buttons = nil
            e.pointee.modal_button_count = 0
            e.pointee.size_class = MW_ABSENT
        case MW_EVENT_MODAL_DISMISSED.rawValue:
            e.pointee.id = mw_str()
            e.pointee.via = MW_ABSENT
            e.pointee.button = MW_ABSENT
            e.pointee.unsaved_changes = MW_ABSENT
            e.pointee.confirmed = MW_ABSENT
        case MW_EVENT_POPOVER_PRESENTED.rawValue, MW_EVENT_POPOVER_DISMISSED.rawValue:
            e.pointee.id = mw_str()
        case MW_EVENT_NAV_PUSH.rawValue, MW_EVENT_NAV_POP.rawValue:
            e.pointee.screen = mw_str()
        default:  // session.end, app.background, app.foreground, unknown: none of their own
            break
        }
    }
}
