import ModalwatchABI

/// The apps the engine remembers: at most `max_apps` without a live session, the least
/// recently seen forgotten first; and the bound on each app's rule state.
extension Engine {
    /// Apps remembered now (with or without live sessions).
    public var appsKnown: Int { apps.count }

    func appState(named app: mw_str) -> AppState {
        appState(
            named: app.ptr == nil
                ? AppState.unnamed
                : String(decoding: UnsafeRawBufferPointer(start: app.ptr, count: app.len), as: UTF8.self)
        )
    }

    /// The app named `name`, made (forgetting the least recently seen past `max_apps`) if
    /// it is not remembered. A new app has no live session yet: the caller joins it.
    func appState(named name: String) -> AppState {
        if let state = apps[name] { return state }
        forgetAppsPastBound(reserving: 1)
        let profile =
            configuration.apps[name] == nil
            ? defaultProfile
            : RuleProfile(catalog: catalog, configuration: configuration, app: name)
        let state = AppState(name: name, profile: profile)
        apps[name] = state
        idleApps.append(state)
        return state
    }

    /// A session of `app` is live.
    func join(_ app: AppState) {
        app.liveSessions += 1
        if app.liveSessions == 1 { idleApps.remove(app) }
    }

    /// A session of `app` ended (or moved to another app). The app, now perhaps without a
    /// live session, may be forgotten at once when the engine holds more than `max_apps`.
    func leave(_ app: AppState) {
        app.liveSessions -= 1
        guard app.liveSessions == 0 else { return }
        idleApps.append(app)
        forgetAppsPastBound(reserving: 0)
    }

    /// Forgets apps without a live session, least recently seen first, until `reserving`
    /// more fit within `max_apps` (or none is left to forget: apps with live sessions stay).
    func forgetAppsPastBound(reserving: Int) {
        while apps.count + reserving > configuration.maxApps, let oldest = idleApps.leastRecentlySeen {
            idleApps.remove(oldest)
            apps[oldest.name] = nil
            statistics.appsEvicted += 1
        }
    }

    /// Adds `delta` to an app counter; a key the app does not hold yet is not kept when the
    /// app holds `max_app_values` counters already (counted): the sum is then as if it were new.
    @inline(__always)
    func appCounterAdd(_ app: AppState, _ key: UInt64, _ delta: Int64) -> Int64 {
        if delta != 0, app.counterMap.count >= configuration.maxAppValues, !app.counterMap.contains(key) {
            statistics.appValuesRefused += 1
            return delta
        }
        return app.counterMap.add(key, delta)
    }

    /// Records an app-wide firing for `key`: whether it is new. A key past `max_app_values`
    /// firings is not recorded and not let through (counted).
    @inline(__always)
    func appFiring(_ app: AppState, _ key: UInt64, record: Bool) -> Bool {
        if app.firedKeys.contains(key) { return false }
        if app.firedKeys.count >= configuration.maxAppValues {
            if record { statistics.appValuesRefused += 1 }
            return false
        }
        if record { app.firedKeys.set(key, 1) }
        return true
    }
}
