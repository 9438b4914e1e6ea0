/// What a message's bucket is computed from (`scale.md`): the app id, or the session id.
/// Producers and daemons must use the same key.
public enum ShardKey: String, Sendable, CaseIterable, Codable {
    /// The app's bundle id: every session and every app lives on one daemon (the default).
    case app
    /// The session id: for one app too large for one daemon; app-wide rules then judge a shard's share.
    case session
}
