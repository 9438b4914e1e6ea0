import ByteBasics

/// The role of a modal view's button (`mw_modal_role`).
public enum ModalRole: Int32, Sendable, CaseIterable {
    /// `WireModalRole.done`
    case done = 0
    /// `WireModalRole.cancel`
    case cancel = 1
    /// `WireModalRole.confirm`
    case confirm = 2
    /// `WireModalRole.other`
    case other = 3

    /// The value's name on the wire, from ByteBasics' `WireModalRole` (the one spelling of each value,
    /// numbered the same).
    public var name: String { WireModalRole(rawValue: rawValue).unsafelyUnwrapped.string }
}
