/// The apps without a live session, least recently seen first: the ones the engine
/// forgets first past `max_apps`.
///
/// Every event belongs to a live session, so an app with none has not been seen since
/// its last session ended: the order in which apps lost their last session is the
/// order in which they were last seen. A doubly linked list through the apps
/// themselves (`AppState.idleOlder`, `idleNewer`): adding, removing and taking the
/// oldest cost O(1) and allocate nothing. The links are unretained; the engine's
/// `apps` owns every app, and an app leaves this list before it leaves `apps`.
struct IdleApps {
    private var oldest: Unmanaged<AppState>?
    private var newest: Unmanaged<AppState>?
    /// Apps in the list.
    private(set) var count = 0

    /// The least recently seen app, if any.
    var leastRecentlySeen: AppState? { oldest?.takeUnretainedValue() }

    /// Adds `app` as the most recently seen (it must not be in the list).
    mutating func append(_ app: AppState) {
        guard !app.isIdleListed else { return }
        let reference = Unmanaged.passUnretained(app)
        app.idleOlder = newest
        app.idleNewer = nil
        if let newest { newest.takeUnretainedValue().idleNewer = reference } else { oldest = reference }
        newest = reference
        app.isIdleListed = true
        count += 1
    }

    /// Takes `app` out of the list (nothing when it is not in it).
    mutating func remove(_ app: AppState) {
        guard app.isIdleListed else { return }
        if let older = app.idleOlder {
            older.takeUnretainedValue().idleNewer = app.idleNewer
        } else {
            oldest = app.idleNewer
        }
        if let newer = app.idleNewer {
            newer.takeUnretainedValue().idleOlder = app.idleOlder
        } else {
            newest = app.idleOlder
        }
        app.idleOlder = nil
        app.idleNewer = nil
        app.isIdleListed = false
        count -= 1
    }

    /// The apps, least recently seen first.
    func forEach(_ body: (AppState) -> Void) {
        var cursor = oldest
        while let current = cursor {
            let app = current.takeUnretainedValue()
            body(app)
            cursor = app.idleNewer
        }
    }
}
