import Foundation

/// Times for people: "12 s ago", "3 min 4 s", "+1.5 s".
enum RelativeTime {
    /// How long ago, from milliseconds: "now", "12 s ago", "3 min ago", "2 h ago", "4 d ago".
    static func ago(ms: Double) -> String {
        let s = Int(max(0, ms) / 1000)
        if s < 1 { return "now" }
        if s < 60 { return "\(s) s ago" }
        if s < 3600 { return "\(s / 60) min ago" }
        if s < 86_400 { return "\(s / 3600) h ago" }
        return "\(s / 86_400) d ago"
    }

    /// A duration: "850 ms", "12 s", "3 min 4 s", "2 h 5 min", "3 d 4 h".
    static func duration(ms: Double) -> String {
        if ms < 1000 { return "\(Int(max(0, ms))) ms" }
        let s = Int(ms / 1000)
        if s < 60 { return "\(s) s" }
        if s < 3600 { return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s" }
        if s < 86_400 { return s % 3600 / 60 == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(s % 3600 / 60) min" }
        return s % 86_400 / 3600 == 0 ? "\(s / 86_400) d" : "\(s / 86_400) d \(s % 86_400 / 3600) h"
    }

    /// An offset in event time: "+0.0 s", "+12.5 s", "+3 min 4 s".
    static func offset(ms: Double) -> String {
        if abs(ms) < 60_000 { return String(format: "%+.1f s", ms / 1000) }
        return (ms < 0 ? "-" : "+") + duration(ms: abs(ms))
    }

    /// The wall clock, ms since the epoch.
    static var nowMs: Double { Date().timeIntervalSince1970 * 1000 }
}
