/// The wire name of an `mw_event_type`, for log lines (not the hot path).
public enum EventTypeName: Sendable {
    /// `alert.presented` for `MW_EVENT_ALERT_PRESENTED`; `type N` for a value it does not know.
    public static func of(_ type: UInt32) -> String {
        Int(type) < SessionJournal.typeNames.count ? SessionJournal.typeNames[Int(type)] : "type \(type)"
    }
}
