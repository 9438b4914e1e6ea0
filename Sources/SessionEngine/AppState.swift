/// State shared by every session of one app: its rule profile, app-wide rule state
/// (counters, what app-wide rules already fired for) and its violation rate.
///
/// The engine remembers at most `max_apps` apps that have no live session (`IdleApps`);
/// the counters and firings of one app hold at most `max_app_values` keys each.
final class AppState {
    /// The name of no app (`-`): no session has it, since an event of an unknown session that
    /// names no app is refused; a snapshot's session under it is not restored.
    static let unnamed = "-"

    /// The bundle id.
    let name: String
    /// `name` as stable UTF-8 bytes for the C views.
    let bytes: StableBytes
    /// The rules in force for the app.
    var profile: RuleProfile
    /// App-scoped rule counters, keyed by rule seed and the rule's key.
    var counterMap = IntegerMap()
    /// Keys of app-wide firings already made (MW_FIRE_ONCE_PER_APP_VALUE).
    var firedKeys = IntegerMap()
    /// The per-app violation rate limit: for each rule with violations (by catalog index
    /// `i`), the event-time second being counted at key `2i + 1` and the violations let
    /// through in it at `2i + 2`.
    var rateMap = IntegerMap()
    /// Violations of the app the rate limit held back since the engine remembered it.
    var violationsHeld: UInt64 = 0

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
    /// The neighbours in the engine's list of apps without a live session (`IdleApps`),
    /// unretained: the engine's `apps` holds every app.
    var idleOlder: Unmanaged<AppState>?
    var idleNewer: Unmanaged<AppState>?
    /// Whether the app is in that list.
    var isIdleListed = false

    /// Whether the app holds nothing a rule left: no counter, no firing.
    var holdsNoRuleState: Bool { counterMap.count == 0 && firedKeys.count == 0 }

    /// `"app":"…",` for the violation JSON.
    let jsonField: UnsafeRawBufferPointer
    /// `violation/<app>/`, the violation topic's first parts.
    let topicPrefix: UnsafeRawBufferPointer
    /// The bytes of the two views above, at an address that never moves (no reference count
    /// per violation, as an array's buffer would cost).
    private let fragments: StableBytes

    init(name: String, profile: RuleProfile) {
        self.name = name
        self.bytes = StableBytes(Array(name.utf8))
        var json = JSONBuffer(capacity: 64)
        json.key("app")
        json.string(name)
        json.byte(0x2C)
        let fieldEnd = json.count
        json.text("violation/\(name)/")
        fragments = StableBytes(json.bytes)
        jsonField = UnsafeRawBufferPointer(rebasing: fragments.buffer[0..<fieldEnd])
        topicPrefix = UnsafeRawBufferPointer(rebasing: fragments.buffer[fieldEnd...])
        self.profile = profile
    }
}
