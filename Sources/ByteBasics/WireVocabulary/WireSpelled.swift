/// An enumeration whose raw values are the spellings of a `WireValue`: the client's public
/// enumerations, named for what an app means, take their raw values from the wire vocabulary
/// instead of spelling them again.
public protocol WireSpelled: RawRepresentable, CaseIterable where RawValue == String {
    /// The wire enumeration it spells.
    associatedtype Wire: WireValue
    /// The wire value this case stands for.
    var wire: Wire { get }
}

extension WireSpelled {
    /// The value's spelling on the wire.
    @inlinable
    public var rawValue: String { wire.string }

    /// The case whose spelling on the wire is `rawValue`, or nil.
    @inlinable
    public init?(rawValue: String) {
        guard let value = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = value
    }
}
