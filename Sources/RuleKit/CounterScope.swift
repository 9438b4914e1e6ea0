/// Where a counter lives (`MW_SCOPE_*`).
public enum CounterScope: UInt32, Sendable {
    /// This session only.
    case session = 0
    /// Every session of this app.
    case app = 1
}
