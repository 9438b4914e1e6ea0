/// A row the history store cannot take, with one sentence saying why.
public struct HistoryStoreError: Error, CustomStringConvertible, Sendable {
    /// What was wrong.
    public let description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
