import Foundation

/// Times for people: "12 s ago", "3 min 4 s", "+1.5 s".
///
/// Any value prints without a trap: the times come from a daemon or a history, which may hold
/// whatever an older daemon accepted (up to 2^63−1 ms) or a reply not a number at all; what is not
/// a finite number counts as 0, and durations are held at `maxSeconds`.
enum RelativeTime {
    /// The longest duration printed as it is, in seconds (about 31,700 years).
    static let maxSeconds = 1_000_000_000_000

    /// How long ago, from milliseconds: "now", "12 s ago", "3 min ago", "2 h ago", "4 d ago".
    static func ago(ms: Double) -> String {
        let s = seconds(ms)
        if s < 1 { return "now" }
        if s < 60 { return "\(s) s ago" }
        if s < 3600 { return "\(s / 60) min ago" }
        if s < 86_400 { return "\(s / 3600) h ago" }
        return "\(s / 86_400) d ago"
    }

    /// A duration: "850 ms", "12 s", "3 min 4 s", "2 h 5 min", "3 d 4 h".
    static func duration(ms: Double) -> String {
        guard ms.isFinite, ms >= 1000 else { return "\(ms.isFinite ? Int(max(0, ms)) : 0) ms" }
        let s = seconds(ms)
        if s < 60 { return "\(s) s" }
        if s < 3600 { return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s" }
        if s < 86_400 { return s % 3600 / 60 == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(s % 3600 / 60) min" }
        return s % 86_400 / 3600 == 0 ? "\(s / 86_400) d" : "\(s / 86_400) d \(s % 86_400 / 3600) h"
    }

    /// An offset in event time: "+0.0 s", "+12.5 s", "+3 min 4 s".
    static func offset(ms: Double) -> String {
        guard ms.isFinite else { return "+0.0 s" }
        if abs(ms) < 60_000 { return String(format: "%+.1f s", ms / 1000) }
        return (ms < 0 ? "-" : "+") + duration(ms: abs(ms))
    }

    /// Whole seconds of `ms`: 0 for what is not a finite positive number, at most `maxSeconds`.
    static func seconds(_ ms: Double) -> Int {
        guard ms.isFinite, ms > 0 else { return 0 }
        return Int(min(ms / 1000, Double(maxSeconds)))
    }

    /// The wall clock, ms since the epoch.
    static var nowMs: Double { Date().timeIntervalSince1970 * 1000 }
}
