/// A value for each ``StatusCounter``, 0 until set: the reply's counters (`Int`) and the
/// daemon's as their owners count them (`UInt64`).
public struct StatusCounters<Value: FixedWidthInteger & Sendable>: Sendable, Equatable {
    /// The counters not 0.
    private var values: [StatusCounter: Value] = [:]

    /// Every counter 0.
    public init() {}

    /// Each of `other`'s counters, clamped to `Value`'s range.
    public init<Other>(clamping other: StatusCounters<Other>) {
        for (counter, value) in other.values { values[counter] = Value(clamping: value) }
    }

    /// The value of `counter`.
    public subscript(counter: StatusCounter) -> Value {
        get { values[counter] ?? 0 }
        set { values[counter] = newValue == 0 ? nil : newValue }
    }

    /// Combines `other`'s counters into these, each as its ``StatusCounter/merge`` says.
    public mutating func merge(_ other: StatusCounters) {
        for (counter, value) in other.values {
            switch counter.merge {
            case .sum: self[counter] += value
            case .max: self[counter] = Swift.max(self[counter], value)
            }
        }
    }
}
