/// The module's state (ABI 1.2): made once from its settings when modalwatchd loads
/// it (`modules: {house: {exempt_apps: "com.a, com.b"}}` in the config), then only read.
struct HouseSettings: Sendable {
    /// Apps the house rules skip.
    let exemptApps: Set<String>

    /// Reads the settings; an unknown setting is refused, so a typo does not go unnoticed.
    init(_ settings: [(key: String, value: String)]) throws {
        var exempt = Set<String>()
        for (key, value) in settings {
            switch key {
            case "exempt_apps":
                for app in value.split(separator: ",") {
                    let name = app.trimmingCharacters(in: " ")
                    if !name.isEmpty { exempt.insert(name) }
                }
            default:
                throw HouseSettingsError(message: "unknown setting '\(key)'; the house module knows exempt_apps")
            }
        }
        exemptApps = exempt
    }
}

/// Why the module refused its settings (modalwatchd reports it and does not load the module).
struct HouseSettingsError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension Substring {
    /// Without leading and trailing `characters`.
    fileprivate func trimmingCharacters(in characters: Character) -> String {
        String(drop(while: { $0 == characters }).reversed().drop(while: { $0 == characters }).reversed())
    }
}
