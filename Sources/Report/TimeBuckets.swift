public import RuleHost

/// Violations over event time in bounded memory: per minute while that makes at
/// most `maxBuckets` buckets, then per hour, then per day.
public struct TimeBuckets: Sendable {
    /// The width of a bucket.
    public enum Width: Int64, Sendable, CaseIterable {
        case minute = 60_000
        case hour = 3_600_000
        case day = 86_400_000

        /// "minute", "hour", "day".
        public var name: String {
            switch self {
            case .minute: "minute"
            case .hour: "hour"
            case .day: "day"
            }
        }
    }

    /// Buckets held at most before they are merged into wider ones.
    public let maxBuckets: Int
    /// The width of the buckets held.
    public private(set) var width: Width = .minute
    private var buckets: [Int64: SeverityCounts] = [:]
    /// Earliest and latest event time counted.
    public private(set) var first = Int64.max
    /// Latest event time counted.
    public private(set) var last = Int64.min

    /// Empty buckets.
    public init(maxBuckets: Int = 20_000) {
        self.maxBuckets = maxBuckets
    }

    /// Counts one violation at event time `ts`.
    public mutating func add(ts: Int64, severity: Severity) {
        first = min(first, ts)
        last = max(last, ts)
        buckets[Self.floor(ts, width.rawValue), default: SeverityCounts()].add(severity)
        if buckets.count > maxBuckets, let wider = Width.allCases.first(where: { $0.rawValue > width.rawValue }) {
            widen(to: wider)
        }
    }

    /// The buckets for display: per minute up to a 3-hour span, per hour up to 7 days, else per
    /// day (never narrower than what is held); every bucket from the first to the last, empty ones
    /// included, oldest first.
    public func series() -> (width: Width, buckets: [(start: Int64, counts: SeverityCounts)]) {
        guard first <= last else { return (width, []) }
        let span = last - first
        var chosen: Width = span <= 3 * Width.hour.rawValue ? .minute : span <= 7 * Width.day.rawValue ? .hour : .day
        if chosen.rawValue < width.rawValue { chosen = width }
        var merged: [Int64: SeverityCounts] = [:]
        for (start, counts) in buckets { merged[Self.floor(start, chosen.rawValue), default: SeverityCounts()].add(counts) }
        var result: [(Int64, SeverityCounts)] = []
        var start = Self.floor(first, chosen.rawValue)
        while start <= last {
            result.append((start, merged[start] ?? SeverityCounts()))
            start += chosen.rawValue
        }
        return (chosen, result)
    }

    private mutating func widen(to wider: Width) {
        var merged: [Int64: SeverityCounts] = [:]
        for (start, counts) in buckets { merged[Self.floor(start, wider.rawValue), default: SeverityCounts()].add(counts) }
        buckets = merged
        width = wider
    }

    /// `ts` rounded down to a multiple of `width` (UTC).
    static func floor(_ ts: Int64, _ width: Int64) -> Int64 {
        let r = ts % width
        return r < 0 ? ts - r - width : ts - r
    }
}
