/// State shared by every session of one app: its rule profile, and app-wide
/// rule state (counters, what app-wide rules already fired for).
final class AppState {
    /// The bundle id ("-" for sessions that never said).
    let name: String
    /// `name` as stable UTF-8 bytes for the C views.
    let bytes: StableBytes
    /// The rules in force for the app.
    var profile: RuleProfile
    /// App-scoped rule counters, keyed by rule seed and the rule's key.
    var counterMap = IntegerMap()
    /// Keys of app-wide firings already made (MW_FIRE_ONCE_PER_APP_VALUE).
    var firedKeys = IntegerMap()

    /// `counterMap` as a dictionary (snapshots).
    var counters: [UInt64: Int64] {
        get { counterMap.dictionary }
        set { counterMap.replace(with: newValue) }
    }
    /// `firedKeys` as a set (snapshots).
    var fired: Set<UInt64> {
        get { firedKeys.keySet }
        set { firedKeys.replace(withKeys: newValue) }
    }
    /// Live sessions of the app.
    var liveSessions = 0

    /// `"app":"…",` for the violation JSON.
    let jsonField: [UInt8]
    /// `violation/<app>/`, the violation topic's first parts.
    let topicPrefix: [UInt8]

    init(name: String, profile: RuleProfile) {
        self.name = name
        self.bytes = StableBytes(Array(name.utf8))
        var json = JSONBuffer(capacity: 64)
        json.key("app"); json.string(name); json.byte(0x2C)
        jsonField = json.bytes
        topicPrefix = Array("violation/\(name)/".utf8)
        self.profile = profile
    }
}
