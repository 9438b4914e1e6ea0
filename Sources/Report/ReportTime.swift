import ByteBasics
import Foundation

/// Event times for people, in UTC, without a locale: "2024-11-22 15:40 UTC".
public enum ReportTime: Sendable {
    /// "2024-11-22 15:40:05 UTC" (seconds only when `seconds`).
    public static func format(_ ms: Int64, seconds: Bool = false, date: Bool = true, time: Bool = true) -> String {
        let ms = EventTime.clamped(ms)
        let totalSeconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        var days = totalSeconds / 86_400
        var rest = totalSeconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (y, m, d) = civil(days: days)
        let hh = rest / 3600
        let mm = rest % 3600 / 60
        let ss = rest % 60
        var parts: [String] = []
        if date { parts.append("\(y)-\(pad(m))-\(pad(d))") }
        if time { parts.append(seconds ? "\(pad(hh)):\(pad(mm)):\(pad(ss))" : "\(pad(hh)):\(pad(mm))") }
        return parts.joined(separator: " ") + (time ? " UTC" : "")
    }

    /// A bucket's label at its width: "15:40" (minute), "11-22 15:00" (hour), "2024-11-22" (a day or more).
    static func bucketLabel(_ ms: Int64, width: TimeBuckets.Width) -> String {
        switch width {
        case .minute: format(ms, date: false).replacingOccurrences(of: " UTC", with: "")
        case .hour: String(format(ms).dropFirst(5).replacingOccurrences(of: " UTC", with: ""))
        default: format(ms, time: false)
        }
    }

    /// A duration: "850 ms", "12.5 s", "3 min 4 s", "2 h 5 min".
    static func duration(_ ms: Int64) -> String {
        let ms = min(ms, EventTime.maxMs)
        if ms < 1000 { return "\(max(0, ms)) ms" }
        if ms < 60_000 {
            let tenths = ms / 100
            return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
        }
        let s = ms / 1000
        if s < 3600 { return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s" }
        if s < 86_400 { return s % 3600 / 60 == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86_400) d \(s % 86_400 / 3600) h"
    }

    private static func pad(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Year, month, day of a day count since 1970-01-01 (H. Hinnant's civil_from_days).
    private static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
