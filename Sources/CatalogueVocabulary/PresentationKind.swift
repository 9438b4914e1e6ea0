import ModalwatchABI

/// What a presentation is: an entry of a session's presentation stack (`mw_presentation_kind`).
/// Raw values are the C enum's; `name` is the value's one spelling in replies and reports.
public enum PresentationKind: UInt32, CatalogueWord {
    /// `alert` (`MW_KIND_ALERT`).
    case alert = 0
    /// `sheet` (`MW_KIND_SHEET`).
    case sheet = 1
    /// `modal` (`MW_KIND_MODAL`).
    case modal = 2
    /// `popover` (`MW_KIND_POPOVER`).
    case popover = 3

    /// The kind an `mw_event_type` value presents or dismisses (`alert.presented` → `alert`), or
    /// nil for an event of no presentation.
    public init?(eventType: UInt32) {
        switch eventType {
        case MW_EVENT_ALERT_PRESENTED.rawValue, MW_EVENT_ALERT_DISMISSED.rawValue: self = .alert
        case MW_EVENT_SHEET_PRESENTED.rawValue, MW_EVENT_SHEET_DISMISSED.rawValue: self = .sheet
        case MW_EVENT_MODAL_PRESENTED.rawValue, MW_EVENT_MODAL_DISMISSED.rawValue: self = .modal
        case MW_EVENT_POPOVER_PRESENTED.rawValue, MW_EVENT_POPOVER_DISMISSED.rawValue: self = .popover
        default: return nil
        }
    }

    /// The value's spelling: `alert`, `sheet`, `modal` or `popover`.
    public var name: String {
        switch self {
        case .alert: "alert"
        case .sheet: "sheet"
        case .modal: "modal"
        case .popover: "popover"
        }
    }
}
