/// A Swift type a parameter's value can be read as. The host passes every value as
/// an `Int64` (ms for durations); the conformance converts it.
public protocol ParameterValue: Sendable {
    /// The value from the host's `Int64` (already within the declared bounds).
    init(parameterValue: Int64)
}

extension Int64: ParameterValue {
    /// The value as is.
    @inlinable public init(parameterValue: Int64) { self = parameterValue }
}

extension Int: ParameterValue {
    /// The value as is (a declared bound keeps it in range).
    @inlinable public init(parameterValue: Int64) { self = Int(truncatingIfNeeded: parameterValue) }
}

extension Int32: ParameterValue {
    /// The value, clamped to `Int32`'s range.
    @inlinable public init(parameterValue: Int64) { self = Int32(clamping: parameterValue) }
}

extension Duration: ParameterValue {
    /// A duration parameter's milliseconds as a `Duration`.
    @inlinable public init(parameterValue: Int64) { self = .milliseconds(parameterValue) }
}
