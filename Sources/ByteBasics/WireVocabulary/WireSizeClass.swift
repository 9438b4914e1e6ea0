/// A horizontal size class: `size_class` of `session.start` and `modal.presented` (`mw_size_class`).
/// Raw values are the C enum's; `name` is the value's one spelling on the wire.
@frozen
public enum WireSizeClass: Int32, Sendable, CaseIterable, WireValue {
    case compact = 0
    case regular

    /// The value on the wire, as a static string (its bytes live forever).
    @inlinable
    public var name: StaticString {
        switch self {
        case .compact: "compact"
        case .regular: "regular"
        }
    }
}
