import Foundation
import Logging
import RuleHost
import Synchronization

/// Notices a loaded rule module's file replaced or overwritten on disk: every `periodMs`
/// on a thread of its own, and at once on a reload (`check()`). The daemon goes on running
/// the private copy it loaded (`ModuleFile`: the new bytes cannot reach the code that runs,
/// and a module is never unloaded); each changed file gets one warning in the log and a line
/// in `status` (`module_files_changed`) until the restart that loads it.
final class ModuleFileWatch: Sendable {
    /// How often the thread looks at the files by default.
    static let defaultPeriodMs: Int64 = 10_000

    private let files: [ModuleFile]
    private let periodMs: Int64
    private let logger: Logger
    /// The lines of the files found changed, in load order, and whether the thread stops.
    private let found = Mutex<(changed: [String: String], stopping: Bool)>(([:], false))
    private let wake = NSCondition()
    private let ended = DispatchSemaphore(value: 0)

    init(catalog: RuleCatalog, periodMs: Int64 = defaultPeriodMs, logger: Logger) {
        files = catalog.modules.compactMap(\.file)
        self.periodMs = periodMs
        self.logger = logger
    }

    /// One line per loaded module file that changed since it was loaded, in load order.
    var changed: [String] {
        let lines = found.withLock { $0.changed }
        return files.compactMap { lines[$0.path] }
    }

    /// Starts the thread (none when no module was loaded from a file).
    func start() {
        guard !files.isEmpty else {
            ended.signal()
            return
        }
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        thread.name = "mw-module-watch"
        thread.start()
    }

    /// Ends the thread; returns when it has ended.
    func stop() {
        wake.lock()
        found.withLock { $0.stopping = true }
        wake.signal()
        wake.unlock()
        ended.wait()
    }

    /// Compares each file with what was loaded; logs each newly changed one.
    func check() {
        for file in files {
            let now = ModuleFile.Identity.of(path: file.path)
            guard now != file.identity else { continue }
            let running =
                file.copyProblem == nil
                ? "the daemon runs the copy it loaded"
                : "the daemon maps the file itself (no private copy), so new bytes may crash it"
            let line =
                now == nil
                ? "\(file.path): removed since it was loaded; \(running)"
                : "\(file.path): changed on disk since it was loaded (replaced or overwritten); \(running); restart it to load the new file"
            let isNew = found.withLock { state in
                guard state.changed[file.path] != line else { return false }
                state.changed[file.path] = line
                return true
            }
            if isNew {
                logger.warning(
                    "a loaded rule module file changed on disk; the daemon runs the copy it loaded until a restart",
                    metadata: [
                        "path": "\(file.path)", "now": "\(now == nil ? "removed" : "replaced or overwritten")",
                    ]
                )
            }
        }
    }

    private func run() {
        while true {
            wake.lock()
            if !found.withLock({ $0.stopping }) {
                _ = wake.wait(until: Date(timeIntervalSinceNow: Double(periodMs) / 1000))
            }
            wake.unlock()
            if found.withLock({ $0.stopping }) { return }
            check()
        }
    }
}
