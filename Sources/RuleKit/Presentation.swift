public import ModalwatchABI

/// One entry of the session's presentation stack (`mw_presentation`), valid during the call.
public struct Presentation {
    /// The C record.
    public let raw: mw_presentation

    /// Wraps a C record.
    public init(_ raw: mw_presentation) { self.raw = raw }

    /// Alert, sheet, modal or popover; nil for a kind this RuleKit does not know.
    public var kind: PresentationKind? { PresentationKind(rawValue: raw.kind) }
    /// The presentation id.
    public var id: Text { Text(raw.id) }
    /// Event time it was presented.
    public var ts: Int64 { raw.ts }
    /// Modal style.
    public var style: ModalStyle? { ModalStyle(rawValue: raw.style) }
    /// Modal transition.
    public var transition: Transition? { Transition(rawValue: raw.transition) }
    /// Modal: the effective size class (its own, else the session's).
    public var sizeClass: SizeClass? { SizeClass(rawValue: raw.size_class) }
    /// `nav.push` minus `nav.pop` while this entry was topmost, never below 0.
    public var navDepth: Int { Int(raw.nav_depth) }
    /// Its buttons.
    public var buttonCount: Int { Int(max(raw.button_count, 0)) }
    /// Alert / sheet: index of the first cancel button.
    public var cancelIndex: Int? { Flag.index(raw.cancel_index) }
    /// Alert / sheet: index of the first destructive button.
    public var destructiveIndex: Int? { Flag.index(raw.destructive_index) }
    /// Sheet: shown in a popover.
    public var inPopover: Bool? { Flag.bool(raw.in_popover) }

    /// The `*.presented` event that put it on the stack, as a report reference.
    public var presentedRef: EventRef {
        let type: EventType =
            switch kind {
            case .alert: .alertPresented
            case .sheet: .sheetPresented
            case .popover: .popoverPresented
            case .modal, nil: .modalPresented
            }
        return EventRef(type: type, ts: ts, id: id, seq: 0)
    }
}
