/// The apps whose violations the rate limit held back most, for `status`: at most
/// `capacity` of them, each with its count since the engine started.
///
/// An app enters the list when it holds back more than the list's lowest (counted
/// since the engine last remembered it: an app forgotten past `max_apps` starts
/// again from 0); once in, every violation it holds back is added. Small and
/// bounded: one linear look per violation held back, no allocation past the first
/// `capacity` entries.
struct HeldBackApps {
    /// The most apps listed.
    static let capacity = 10

    private var names: [String] = []
    private var counts: [UInt64] = []

    /// One more violation of `app` held back (`app.violationsHeld` already counts it).
    mutating func record(_ app: AppState) {
        if let index = names.firstIndex(of: app.name) {
            counts[index] += 1
            return
        }
        if names.count < Self.capacity {
            names.append(app.name)
            counts.append(app.violationsHeld)
            return
        }
        var lowest = 0
        for index in 1..<counts.count where counts[index] < counts[lowest] { lowest = index }
        if app.violationsHeld > counts[lowest] {
            names[lowest] = app.name
            counts[lowest] = app.violationsHeld
        }
    }

    /// The listed apps and their counts.
    var byApp: [String: UInt64] {
        Dictionary(zip(names, counts), uniquingKeysWith: +)
    }
}
