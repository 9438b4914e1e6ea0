public import ModalwatchABI

/// A button of an alert or action sheet (`mw_button`), a view valid during the call.
public struct Button {
    /// The C record.
    public let raw: mw_button

    /// Wraps a C record.
    public init(_ raw: mw_button) { self.raw = raw }

    /// The button's title.
    public var title: Text { Text(raw.title) }

    /// Its style; an absent style reads as `.default`.
    public var style: ButtonStyle { ButtonStyle(rawValue: raw.style) ?? .default }

    /// Whether the app made it the bold default; nil when not said.
    public var preferred: Bool? { Flag.bool(raw.preferred) }
}
