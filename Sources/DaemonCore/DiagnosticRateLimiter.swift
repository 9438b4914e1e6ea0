/// At most `perSecond` diagnostics a second per app (violations.md); the rest are counted.
struct DiagnosticRateLimiter {
    let perSecond: Int
    private var windows: [String: (second: Int64, count: Int)] = [:]
    private(set) var suppressed: UInt64 = 0

    init(perSecond: Int = 10) {
        self.perSecond = perSecond
    }

    /// Whether a diagnostic for `app` may go out at wall-clock `now` (ms).
    mutating func allow(app: String, now: Int64) -> Bool {
        let second = now / 1000
        var window = windows[app] ?? (second, 0)
        if window.second != second { window = (second, 0) }
        window.count += 1
        windows[app] = window
        if windows.count > 10_000 { windows = windows.filter { $0.value.second == second } }
        if window.count > perSecond {
            suppressed += 1
            return false
        }
        return true
    }
}
