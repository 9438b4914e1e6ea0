import Foundation

/// Durations as config writes them: a whole number and a unit, `ms`, `s`, `m`, `h` or `d`.
public enum DurationParser: Sendable {
    /// Milliseconds for "600s", "15m", "1000ms", "2h", "1d"; nil for anything else.
    public static func milliseconds(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Int64(digits) else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let scale: Int64
        switch unit {
        case "ms": scale = 1
        case "s": scale = 1000
        case "m", "min": scale = 60_000
        case "h": scale = 3_600_000
        case "d": scale = 86_400_000
        default: return nil
        }
        let (result, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : result
    }
}
