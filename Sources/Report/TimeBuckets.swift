import ByteBasics
public import CatalogueVocabulary

/// Violations over event time in bounded memory: per minute while that makes at
/// most `maxBuckets` buckets, then per hour, then per day, then per 2, 4, 8, ... days.
///
/// Every time is first held inside `EventTime`'s range, so that a history holding any stored value
/// (a time an older daemon accepted, up to 2^63−1) is counted at the range's end, and no
/// difference of two times overflows; `series()` gives at most `maxSeriesBuckets` buckets
/// whatever the span.
public struct TimeBuckets: Sendable {
    /// The width of a bucket: a minute, an hour, or a day times a power of two.
    public struct Width: Sendable, Equatable, Hashable {
        /// The width in ms.
        public let rawValue: Int64

        private init(_ ms: Int64) { rawValue = ms }

        /// One minute.
        public static let minute = Width(60_000)
        /// One hour.
        public static let hour = Width(3_600_000)
        /// One day.
        public static let day = Width(86_400_000)

        /// The next wider width: minute → hour → day → 2 days → 4 days ...
        public var wider: Width {
            switch self {
            case .minute: .hour
            case .hour: .day
            default: Width(rawValue * 2)
            }
        }

        /// "minute", "hour", "day", "4 days".
        public var name: String {
            switch self {
            case .minute: "minute"
            case .hour: "hour"
            case .day: "day"
            default: "\(rawValue / Width.day.rawValue) days"
            }
        }
    }

    /// Buckets held at most before they are merged into wider ones.
    public let maxBuckets: Int
    /// Buckets `series()` gives at most, whatever the span.
    public let maxSeriesBuckets: Int
    /// The width of the buckets held.
    public private(set) var width: Width = .minute
    private var buckets: [Int64: SeverityCounts] = [:]
    /// Earliest event time counted (held inside `EventTime`'s range).
    public private(set) var first = Int64.max
    /// Latest event time counted (held inside `EventTime`'s range).
    public private(set) var last = Int64.min

    /// Empty buckets; both bounds at least 2.
    public init(maxBuckets: Int = 20_000, maxSeriesBuckets: Int = 500) {
        precondition(maxBuckets >= 2 && maxSeriesBuckets >= 2, "time buckets need room for at least two")
        self.maxBuckets = maxBuckets
        self.maxSeriesBuckets = maxSeriesBuckets
    }

    /// Counts one violation at event time `ts`.
    public mutating func add(ts: Int64, severity: Severity) {
        let ts = EventTime.clamped(ts)
        first = min(first, ts)
        last = max(last, ts)
        buckets[Self.floor(ts, width.rawValue), default: SeverityCounts()].add(severity)
        while buckets.count > maxBuckets { widen(to: width.wider) }
    }

    /// The buckets for display: per minute up to a 3-hour span, per hour up to 7 days, else per
    /// day, or per 2, 4, 8 ... days when days would be more than `maxSeriesBuckets` (never narrower
    /// than what is held); every bucket from the first to the last, empty ones included, oldest first.
    public func series() -> (width: Width, buckets: [(start: Int64, counts: SeverityCounts)]) {
        guard first <= last else { return (width, []) }
        let span = last - first  // both inside EventTime's range: no overflow
        var chosen: Width = span <= 3 * Width.hour.rawValue ? .minute : span <= 7 * Width.day.rawValue ? .hour : .day
        if chosen.rawValue < width.rawValue { chosen = width }
        while Self.count(first, last, chosen.rawValue) > Int64(maxSeriesBuckets) { chosen = chosen.wider }
        var merged: [Int64: SeverityCounts] = [:]
        for (start, counts) in buckets {
            merged[Self.floor(start, chosen.rawValue), default: SeverityCounts()].add(counts)
        }
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
        for (start, counts) in buckets {
            merged[Self.floor(start, wider.rawValue), default: SeverityCounts()].add(counts)
        }
        buckets = merged
        width = wider
    }

    /// How many buckets of `width` from the one holding `first` to the one holding `last`.
    static func count(_ first: Int64, _ last: Int64, _ width: Int64) -> Int64 {
        (floor(last, width) - floor(first, width)) / width + 1
    }

    /// `ts` rounded down to a multiple of `width` (UTC); `ts` inside `EventTime`'s range.
    static func floor(_ ts: Int64, _ width: Int64) -> Int64 {
        let r = ts % width
        return r < 0 ? ts - r - width : ts - r
    }
}
