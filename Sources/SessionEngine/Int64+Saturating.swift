extension Int64 {
    /// `self + other`, held at `Int64.max` / `Int64.min` instead of wrapping: event times
    /// come from devices (up to 2^63−1 ms), and a wrapped "latest + timeout" would make
    /// a normal event look idle past the timeout and restart its session.
    @inlinable @inline(__always)
    public func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, held at `Int64.max` / `Int64.min` instead of wrapping: the difference of
    /// two times read back from a history or a snapshot, which may hold any value.
    @inlinable @inline(__always)
    public func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }
}

extension UInt64 {
    /// Adds `other`, held at `UInt64.max` instead of trapping: a counter of events that outside
    /// numbers say were lost can be asked to grow past any bound.
    @inlinable @inline(__always)
    public mutating func addSaturated(_ other: UInt64) {
        let (sum, overflow) = addingReportingOverflow(other)
        self = overflow ? .max : sum
    }
}
