public import ModalwatchABI

/// A button of a modal view (`mw_modal_button`), a view valid during the call.
public struct ModalButton {
    /// The C record.
    public let raw: mw_modal_button

    /// Wraps a C record.
    public init(_ raw: mw_modal_button) { self.raw = raw }

    /// The button's title.
    public var title: Text { Text(raw.title) }

    /// Its role, or nil when not said.
    public var role: ModalRole? { ModalRole(rawValue: raw.role) }
}
