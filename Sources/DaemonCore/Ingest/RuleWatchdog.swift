import ByteBasics
import CRuleGuard
import Foundation
import Glibc
import Logging
import Synchronization

/// A thread that watches the rule-call marker: a call of one rule that runs longer than
/// `limitMs` (default 1 s; `rule_call_timeout`) is marked hung, named in the log, and the
/// process ends (exit 70), so that systemd restarts it and the restarted daemon puts the
/// rule in quarantine. A rule stuck in a loop cannot be stopped any other way: its thread
/// runs code the daemon does not control.
///
/// It reads the marker's state and call counter every quarter of the limit; it costs the
/// ingest thread nothing.
/// Sendable: every stored property is a `let` of a Sendable type (the guard's marker is shared
/// memory read with the C atomics of CRuleGuard).
final class RuleWatchdog: Sendable {
    /// The exit status of a process the watchdog ends.
    static let exitStatus: Int32 = 70

    private let guardian: RuleFaultGuard
    private let limitMs: Int64
    private let logger: Logger
    /// Signalled by `stop()`; the thread waits on it a period at a time.
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Mutex(false)
    private let ended = DispatchSemaphore(value: 0)

    init(guardian: RuleFaultGuard, limitMs: Int64, logger: Logger) {
        self.guardian = guardian
        self.limitMs = limitMs
        self.logger = logger
    }

    /// Starts the thread.
    func start() {
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        thread.name = "mw-rule-watchdog"
        thread.start()
    }

    /// Ends the thread; returns when it has ended.
    func stop() {
        stopping.withLock { $0 = true }
        wake.signal()
        ended.wait()
    }

    private func run() {
        let periodMs = Int(max(10, limitMs / 4))
        var watched: (generation: UInt64, since: Int64)?
        while true {
            if !stopping.withLock({ $0 }) { _ = wake.wait(timeout: .now() + .milliseconds(periodMs)) }
            if stopping.withLock({ $0 }) { return }
            let marker = guardian.marker
            let generation = mw_marker_generation(marker)
            guard mw_marker_state(marker) == MW_MARKER_IN_CALL else {
                watched = nil
                continue
            }
            let now = PosixClock.monotonic.milliseconds()
            guard let current = watched, current.generation == generation else {
                watched = (generation, now)
                continue
            }
            // First seen running a quarter period after it started at the latest: it has run at least this long.
            guard now - current.since >= limitMs, let culprit = guardian.markHung(generation: generation) else {
                continue
            }
            logger.critical(
                "a rule call ran past rule_call_timeout; ending the process so that it restarts with the rule quarantined",
                metadata: [
                    "module": "\(culprit.module)", "rule": "\(culprit.rule)", "event": "\(culprit.event)",
                    "limit_ms": "\(limitMs)", "exit": "\(Self.exitStatus)",
                ]
            )
            _exit(Self.exitStatus)
        }
    }
}
