/// A word of the catalogue's vocabulary: a closed set of values, each with its one spelling.
public protocol CatalogueWord: CaseIterable, Sendable {
    /// The value's spelling in configs, violations and replies.
    var name: String { get }
}

extension CatalogueWord {
    /// The value spelled `name`, or nil.
    public init?(name: String) {
        guard let value = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = value
    }
}
