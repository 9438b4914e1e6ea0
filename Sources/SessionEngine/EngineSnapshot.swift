/// Everything the engine knows about live sessions and apps, to survive a
/// restart: written on a graceful stop, read back on start.
public struct EngineSnapshot: Codable, Sendable, Equatable {
    /// The snapshot format; a daemon refuses a snapshot of another version.
    public static let currentVersion = 1

    struct Entry: Codable, Sendable, Equatable {
        var kind: UInt32
        var id: [UInt8]
        var ts: Int64
        var style: Int32
        var transition: Int32
        var sizeClass: Int32
        var navDepth: Int32
        var buttonCount: Int32
        var cancelIndex: Int32
        var destructiveIndex: Int32
        var inPopover: Int32
        /// The first bytes of its title (`Session.maxTitleBytes`); nil in snapshots older than format 3.
        var title: [UInt8]? = nil
    }

    struct SessionState: Codable, Sendable, Equatable {
        var id: [UInt8]
        var app: String
        var device: Int32
        var sizeClass: Int32
        var foreground: Bool
        var stack: [Entry]
        var maxModalDepth: Int32
        var startedTs: Int64
        var lastTs: Int64
        var lastSeq: Int64
        var lastUserActionTs: Int64
        var lastUserActionControl: Int32
        var runningTasks: [UInt64]
        var lastTaskFinishedTs: Int64
        var lastTaskFailedTs: Int64
        var events: UInt64
        var alertsPresented: UInt64
        var presentations: UInt64
        var violations: UInt64
        var lastObserved: Int64
        var counters: [UInt64: Int64]
        var windows: [UInt64: [Int64]]
        var fired: [UInt64]
        var quietUntil: [UInt64: Int64]
        /// The session's `locale` tag (normalized); nil when it has none.
        var locale: [UInt8]? = nil
    }

    struct AppStateSnapshot: Codable, Sendable, Equatable {
        var name: String
        var counters: [UInt64: Int64]
        var fired: [UInt64]
    }

    /// The format version.
    public var version: Int
    var apps: [AppStateSnapshot]
    /// Least recently active first, so restoring keeps the order.
    var sessions: [SessionState]

    /// Sessions in the snapshot.
    public var sessionCount: Int { sessions.count }
}
