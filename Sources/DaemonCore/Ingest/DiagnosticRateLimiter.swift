/// At most `perSecond` diagnostics a second per app (violations.md); the rest are counted.
struct DiagnosticRateLimiter {
    let perSecond: Int
    private var windows: [String: Int] = [:]
    private var second: Int64 = .min
    private(set) var suppressed: UInt64 = 0
    /// Past this many apps in one second, the rest share one budget.
    static let maxApps = 10_000

    init(perSecond: Int = 10) {
        self.perSecond = perSecond
    }

    /// Whether a diagnostic for `app` may go out at wall-clock `now` (ms).
    mutating func allow(app: String, now: Int64) -> Bool {
        let current = now / 1000
        if current != second {
            second = current
            windows.removeAll(keepingCapacity: true)
        }
        let key = windows.count >= Self.maxApps && windows[app] == nil ? "-" : app
        let count = (windows[key] ?? 0) + 1
        windows[key] = count
        if count > perSecond {
            suppressed += 1
            return false
        }
        return true
    }
}
