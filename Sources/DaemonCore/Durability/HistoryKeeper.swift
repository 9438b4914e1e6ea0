import ByteBasics
import Foundation
import HistoryStore
import Logging
import PostgresHistory
import Synchronization

/// Keeps the store-failure contract of violations.md for the publishing thread:
/// writes each group's violations to the history; when the store cannot write
/// (disk full, an I/O error, a read-only file), keeps them in a bounded
/// `ViolationSpool` and retries, writing the spool back in order before anything
/// newer; past the spool's bound, counts each violation lost (`violations_unstored`)
/// and asks for a `diag/-/history_unavailable` notice.
///
/// The history is SQLite (`history.sqlite` in the state directory) or PostgreSQL (one database
/// for every daemon, `PostgresHistory`); the WAL's bound, the reserve and the state directory's
/// identity are SQLite's alone. A PostgreSQL server that cannot be reached at start is a store
/// failing from the start: the daemon runs, spools, and writes the spool back when it can.
///
/// Owned by the publishing thread, like the history's writer connection.
final class HistoryKeeper {
    /// Where the history is.
    enum Target: Sendable {
        /// The SQLite file at `path`.
        case sqlite(path: String)
        /// The PostgreSQL database of `conninfo`; the spill file goes in `stateDirectory` when there is one.
        case postgresql(conninfo: String, stateDirectory: String?)

        /// The file, or `postgresql: ` and the connection string without a password: for `status` and logs.
        var description: String {
            switch self {
            case .sqlite(let path): path
            case .postgresql(let conninfo, _): "postgresql: " + PostgresConninfo.redacted(conninfo)
            }
        }

        /// A reader of the history, for the control thread.
        func openReader() throws -> any HistoryReading {
            switch self {
            case .sqlite(let path): try ViolationHistory(path: path, readOnly: true)
            case .postgresql(let conninfo, _):
                try PostgresHistory(conninfo: conninfo, writer: false, applicationName: "modalwatchd")
            }
        }
    }

    /// The spool's bounds.
    struct SpoolBounds: Sendable {
        /// Bytes in memory at most.
        var memoryBytes: Int
        /// Bytes in the spill file (`spool.bin` in the state directory) at most; 0 for none.
        var fileBytes: Int
    }

    /// The spill file's name in the state directory.
    static let spillFileName = "spool.bin"
    /// How often a failing store is tried again.
    static let retryIntervalMs: Int64 = 250
    /// At most this many bytes of spooled violations go into one transaction.
    static let replayBytesPerCommit = 4 << 20
    /// While the store fails, room is made (see `makeRoom`) at most this often.
    static let makeRoomIntervalMs: Int64 = 5_000
    /// How long a write waits for a lock another connection holds (an operator's `sqlite3`, a
    /// long transaction) before it fails and its violations go to the spool: the publishing
    /// thread, and so the hand-over from the ingest thread, never waits longer.
    static let busyTimeoutSeconds = 0.1
    /// How often the state directory's identity is compared (`StateDirectoryIdentity`).
    static let identityCheckIntervalMs: Int64 = 1_000
    /// How often a commit measures the WAL (`checkWAL`): a `stat` a commit cost about 2 % of the
    /// publishing thread, and the WAL grows by far less than `history.wal_limit` in this time.
    static let walCheckIntervalMs: Int64 = 10

    let health: StoreHealth
    private let target: Target
    /// The SQLite file, or what the logs name for PostgreSQL.
    private let path: String
    /// The SQLite file; nil for PostgreSQL.
    private let sqlitePath: String?
    /// Its WAL (`sqlitePath` and `-wal`), measured before a commit every `walCheckIntervalMs` (`checkWAL`).
    private let walPath: String?
    private let statistics: PublishingStatistics
    private let logger: Logger
    private(set) var history: (any HistoryStoring)?
    private let spool: ViolationSpool
    private var nextRetryMs: Int64 = 0
    private var lastSpoolFullLogMs: Int64 = .min / 2
    private var lastNoticeMs: Int64 = .min / 2
    private var unstoredSinceNotice: UInt64 = 0
    private var failedSince: Int64 = 0
    private var nextMakeRoomMs: Int64 = 0
    private let retention: PublishingThread.Retention
    /// The retention's `now`: the daemon's clock, which a forward step of the wall clock does not move.
    private let clock: DaemonClock
    private var reserve: HistoryReserve?
    private let directory: String?
    /// The WAL's size past which the store counts as failing (`history.wal_limit`).
    private let walLimitBytes: Int
    /// The state directory and history this keeper opened; nil while they are gone.
    private var identity: StateDirectoryIdentity?
    private var nextIdentityCheckMs: Int64 = 0
    /// The ids of the violations the SQLite history stored in the `repeatHorizonMs` before this
    /// start: after a restart (a crash above all), events a client replays are judged again, and
    /// their violations have the ids they had; such a violation is published again but not stored
    /// twice. Each id leaves the set when it comes; the set is let go `repeatHorizonMs` after the
    /// start. PostgreSQL needs none: its `id` is unique.
    private var storedRecently: Set<ViolationID> = []
    /// When `storedRecently` is let go (monotonic ms).
    private var storedRecentlyUntilMs: Int64 = 0
    /// How far back from the start, and how long after it, a repeat is looked for: far longer than
    /// a client's replay window spans at any rate it keeps up with.
    static let repeatHorizonMs: Int64 = 600_000
    /// The most ids `storedRecently` holds: the newest.
    static let maxStoredRecently = 1_000_000
    private var nextWALTruncateMs: Int64 = 0
    /// The WAL's size when `checkWAL` last measured it, and when it measures it next.
    private var lastWALBytes = 0
    private var nextWALCheckMs: Int64 = 0
    /// Damaged spill-file records already added to `unstored`.
    private var damagedCounted = 0

    /// Opens the history (throws when an SQLite file cannot be opened; a PostgreSQL server that
    /// cannot be reached leaves the store failing, its violations spooled) with a spool of `bounds`.
    init(
        target: Target,
        bounds: SpoolBounds,
        walLimitBytes: Int,
        retention: PublishingThread.Retention,
        clock: DaemonClock,
        statistics: PublishingStatistics,
        health: StoreHealth,
        logger: Logger
    ) throws {
        self.target = target
        let directory: String?
        switch target {
        case .sqlite(let path):
            self.path = path
            sqlitePath = path
            walPath = path + "-wal"
            directory = (path as NSString).deletingLastPathComponent
        case .postgresql(_, let stateDirectory):
            path = target.description
            sqlitePath = nil
            walPath = nil
            directory = stateDirectory
        }
        self.clock = clock
        self.retention = retention
        self.statistics = statistics
        self.health = health
        self.logger = logger
        self.walLimitBytes = walLimitBytes
        self.directory = directory
        spool = ViolationSpool(
            memoryLimit: bounds.memoryBytes,
            fileLimit: directory == nil ? 0 : bounds.fileBytes,
            spillPath: directory.map { $0 + "/" + Self.spillFileName },
            clock: clock,
            logger: logger
        )
        if let sqlitePath, let directory {
            let sqlite = try Self.open(sqlitePath, walLimitBytes: walLimitBytes, logger: logger)
            history = sqlite
            let loadStartedMs = PosixClock.monotonic.milliseconds()
            storedRecently = Set(
                try sqlite.ids(
                    observedSince: clock.milliseconds() - Self.repeatHorizonMs,
                    limit: Self.maxStoredRecently
                )
            )
            storedRecentlyUntilMs = PosixClock.monotonic.milliseconds() + Self.repeatHorizonMs
            if !storedRecently.isEmpty {
                logger.info(
                    "violations stored in the last 10 minutes: judged again after this start (a client's replay), one is not stored twice",
                    metadata: [
                        "violations": "\(storedRecently.count)",
                        "took_ms": "\(PosixClock.monotonic.milliseconds() - loadStartedMs)",
                    ]
                )
            }
            identity = StateDirectoryIdentity(historyPath: sqlitePath, directory: directory)
            var reserve = HistoryReserve(directory: directory)
            if !reserve.take() {
                logger.warning(
                    "no room for the history's reserve; a disk the history fills by itself may stay full until space is freed",
                    metadata: [
                        "path": "\(directory)/\(HistoryReserve.fileName)", "bytes": "\(HistoryReserve.defaultBytes)",
                    ]
                )
            }
            self.reserve = reserve
        } else {
            reserve = nil
        }
        health.state = .ok
        if case .postgresql = target {
            do { history = try openStore() } catch {
                failed(error, now: PosixClock.monotonic.milliseconds())
                nextRetryMs = 0
            }
        }
        publishSpoolFigures()
        if !spool.isEmpty {
            logger.notice(
                "found violations spooled by an earlier run; they go into the history first",
                metadata: [
                    "violations": "\(spool.count)", "path": "\(directory ?? "-")/\(Self.spillFileName)",
                ]
            )
            health.state = .failing
            publishSpoolFigures()
        }
    }

    /// A new writer connection to the target.
    private func openStore() throws -> any HistoryStoring {
        switch target {
        case .sqlite(let path):
            return try Self.open(path, walLimitBytes: walLimitBytes, logger: logger)
        case .postgresql(let conninfo, _):
            let history = try PostgresHistory(conninfo: conninfo, writer: true, applicationName: "modalwatchd")
            if !history.migrationsApplied.isEmpty {
                logger.notice(
                    "the PostgreSQL history's schema is created or migrated",
                    metadata: [
                        "versions": "\(history.migrationsApplied)", "database": "\(path)",
                    ]
                )
            }
            return history
        }
    }

    /// Whether a retry is waiting (the publishing thread then wakes up for it).
    var hasSpooled: Bool { !spool.isEmpty }

    /// The writer's connection: a bounded wait for locks, the WAL cut back to half the limit when it
    /// starts over. 0.1.0's file is converted first, a slice a transaction, each slice logged.
    private static func open(_ path: String, walLimitBytes: Int, logger: Logger) throws -> ViolationHistory {
        try ViolationHistory(
            path: path,
            checkpointsElsewhere: true,
            busyTimeout: busyTimeoutSeconds,
            walSizeLimit: walLimitBytes / 2,
            progress: { step in
                logger.notice(
                    step.remaining == 0 ? "0.1.0's history is converted" : "converting 0.1.0's history",
                    metadata: [
                        "converted": "\(step.converted)", "remaining": "\(step.remaining)", "path": "\(path)",
                    ]
                )
            }
        )
    }

    /// The checks that do not wait for a write, once a second or so (the publishing thread calls
    /// it when idle too): the state directory's identity, and the WAL's size for `status`.
    func checkIfDue(now: Int64 = PosixClock.monotonic.milliseconds()) {
        guard now >= nextIdentityCheckMs else { return }
        nextIdentityCheckMs = now + Self.identityCheckIntervalMs
        reconnectIfIdle(now: now)
        guard let sqlitePath, let directory else { return }
        health.walBytes.store(UInt64(walBytes()), ordering: .relaxed)
        guard history != nil, identity != nil,
            StateDirectoryIdentity(historyPath: sqlitePath, directory: directory) != identity
        else { return }
        // Removed or replaced: whatever this connection writes now goes to unlinked files.
        history = nil
        identity = nil
        spool.detachSpillFile()
        failed(
            HistoryStoreError(
                "the state directory \(directory) or its history was removed or replaced under the daemon; violations are spooled in memory until a history can be opened there again"
            ),
            now: now
        )
    }

    /// PostgreSQL: a store failing with nothing spooled (a server away at start, before any
    /// violation) connects again about once a second, so that `status` says ok once the server is back.
    private func reconnectIfIdle(now: Int64) {
        guard case .postgresql = target, spool.isEmpty, history == nil || health.state == .failing, now >= nextRetryMs
        else { return }
        history = nil
        do { history = try openStore() } catch {
            failed(error, now: now)
            return
        }
        health.state = .ok
        health.lastErrorText = nil
        logger.notice(
            "the history store accepts writes again",
            metadata: [
                "database": "\(path)", "unstored_total": "\(health.unstored.load(ordering: .relaxed))",
            ]
        )
    }

    /// The WAL's size in bytes (0 when there is none).
    private func walBytes() -> Int {
        guard let walPath else { return 0 }
        var info = stat()
        return stat(walPath, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Throws when the WAL is past `walLimitBytes` and a TRUNCATE checkpoint (at most one every
    /// retry interval) cannot bring it back: a reader holds a read transaction that the WAL's
    /// frames must outlive. The store then fails, and its violations go to the spool.
    private func checkWAL(_ store: any HistoryStoring, now: Int64) throws {
        guard walPath != nil else { return }
        // Measured again every `walCheckIntervalMs`, and at every commit while it is past the limit.
        if now >= nextWALCheckMs || lastWALBytes > walLimitBytes {
            lastWALBytes = walBytes()
            nextWALCheckMs = now + Self.walCheckIntervalMs
        }
        var size = lastWALBytes
        guard size > walLimitBytes, let history = store as? ViolationHistory else { return }
        if now >= nextWALTruncateMs {
            nextWALTruncateMs = now + Self.retryIntervalMs
            _ = try? history.checkpointTruncating()
            size = walBytes()
            lastWALBytes = size
            health.walBytes.store(UInt64(size), ordering: .relaxed)
            guard size > walLimitBytes else { return }
        }
        throw HistoryStoreError(
            "the history's WAL is \(size) bytes, past history.wal_limit (\(walLimitBytes)): a reader holds a read transaction, so no checkpoint can start it over; violations are spooled until the reader ends"
        )
    }

    /// Stores the violations of one group of batch records, or spools them when the store
    /// cannot take them (or when older ones wait in the spool: the order is kept).
    func store(_ bytes: UnsafeRawBufferPointer) {
        let now = PosixClock.monotonic.milliseconds()
        checkIfDue(now: now)
        if !storedRecently.isEmpty, now >= storedRecentlyUntilMs { storedRecently = [] }
        if spool.isEmpty, let history {
            do {
                try checkWAL(history, now: now)
                var repeated: UInt64 = 0
                let stored = try history.write { writer in
                    var reader = OutboundBatchReader(bytes)
                    while let record = reader.next() {
                        guard case .violation(_, let payload, let c) = record else { continue }
                        if !storedRecently.isEmpty,
                            storedRecently.remove(ViolationID(high: c.idHigh, low: c.idLow)) != nil
                        {
                            repeated += 1
                            continue
                        }
                        try writer.insert(c, json: payload)
                    }
                }
                statistics.violationsStored.add(UInt64(stored), ordering: .relaxed)
                if repeated > 0 { statistics.violationsAlreadyStored.add(repeated, ordering: .relaxed) }
                statistics.historyCommits.add(1, ordering: .relaxed)
                if health.state == .failing {
                    // Failing with nothing spooled (every violation went past a zero bound): healthy again.
                    health.state = .ok
                    health.lastErrorText = nil
                    logger.notice(
                        "the history store accepts writes again",
                        metadata: [
                            "unstored_total": "\(health.unstored.load(ordering: .relaxed))"
                        ]
                    )
                }
                return
            } catch {
                failed(error, now: now)
            }
        }
        spoolViolations(bytes)
        retryIfDue(now: now)
    }

    /// Tries a failing store again when its time has come: the spool, oldest first.
    func retryIfDue(now: Int64 = PosixClock.monotonic.milliseconds()) {
        guard !spool.isEmpty, now >= nextRetryMs else { return }
        if history == nil || health.state == .failing {
            // A fresh connection: one that met a read-only or vanished file, or a server that went
            // away, may not recover by itself.
            history = nil
            do { history = try openStore() } catch {
                failed(error, now: now)
                return
            }
            if identity == nil, let sqlitePath, let directory {
                identity = StateDirectoryIdentity(historyPath: sqlitePath, directory: directory)
                logger.notice("a history is open in the state directory again", metadata: ["path": "\(path)"])
            }
        }
        guard let history else { return }
        makeRoom(history, now: now)
        do { try checkWAL(history, now: now) } catch {
            failed(error, now: now)
            return
        }
        var written = 0
        // A bounded amount per wake-up, so that publishing goes on while a large spool is written.
        let started = PosixClock.monotonic.milliseconds()
        while !spool.isEmpty, PosixClock.monotonic.milliseconds() - started < 50 {
            do {
                let stored = try spool.writeOldest(to: history, maxBytes: Self.replayBytesPerCommit)
                statistics.violationsStored.add(UInt64(stored), ordering: .relaxed)
                health.recovered.add(UInt64(stored), ordering: .relaxed)
                written += stored
            } catch {
                publishSpoolFigures()
                failed(error, now: now)
                return
            }
        }
        publishSpoolFigures()
        if spool.isEmpty {
            spool.reattachSpillFileIfDrained()
            health.state = .ok
            health.lastErrorText = nil
            logger.notice(
                "the history store accepts writes again; every spooled violation is stored",
                metadata: [
                    "written_now": "\(written)", "recovered_total": "\(health.recovered.load(ordering: .relaxed))",
                    "unstored_total": "\(health.unstored.load(ordering: .relaxed))",
                    "outage_ms": "\(PosixClock.monotonic.milliseconds() - failedSince)",
                ]
            )
        }
    }

    /// At a stop: one last try of a failing store (each write waits `busyTimeoutSeconds` at most,
    /// so a locked store cannot hold the stop). What memory still holds then goes into the spill
    /// file, before the file's own records, and waits there for the next run with them; only what
    /// cannot (no spill file, no room, a directory removed) is lost, counted and logged.
    func finish() {
        guard !spool.isEmpty else { return }
        nextRetryMs = 0
        retryIfDue()
        guard !spool.isEmpty else { return }
        let lostFromMemory = spool.persistMemory()
        let lost = lostFromMemory + (spool.count - spool.fileRecordCount)
        health.unstored.add(UInt64(lost), ordering: .relaxed)
        publishSpoolFigures()
        logger.error(
            "stopping while the history store cannot write; the spooled violations wait in the spill file for the next start",
            metadata: [
                "kept_in_spill_file": "\(spool.fileRecordCount)", "lost": "\(lost)",
                "unstored_total": "\(health.unstored.load(ordering: .relaxed))",
            ]
        )
    }

    /// When violations were lost since the last notice and a second has passed: the
    /// `history_unavailable` detail to publish (at most one a second).
    func takeUnavailableNotice(now: Int64 = PosixClock.monotonic.milliseconds()) -> String? {
        guard unstoredSinceNotice > 0, now - lastNoticeMs >= 1000 else { return nil }
        lastNoticeMs = now
        let lost = unstoredSinceNotice
        unstoredSinceNotice = 0
        return "the history store cannot write and the spool is full: \(lost) violation(s) published but not stored"
            + " (\(health.unstored.load(ordering: .relaxed)) in total); last error: \(health.lastErrorText ?? "unknown")"
    }

    /// The most one `prune` deletes (the store's slice; any when there is no store).
    var pruneSlice: Int { history?.pruneSlice ?? .max }

    /// Retention, when the store is healthy: one slice.
    func prune() -> Int? {
        guard spool.isEmpty, let history else { return nil }
        if reserve?.isInPlace == false, reserve?.take() == true {
            logger.notice(
                "the history's reserve is in place again",
                metadata: ["bytes": "\(HistoryReserve.defaultBytes)"]
            )
        }
        return applyRetention(history)
    }

    /// Deletes what the retention no longer keeps; nil when there is none or it failed.
    private func applyRetention(_ history: any HistoryStoring) -> Int? {
        guard retention.maxAgeMs != nil || retention.maxRows != nil else { return nil }
        return try? history.prune(now: clock.milliseconds(), maxAgeMs: retention.maxAgeMs, maxRows: retention.maxRows)
    }

    /// While the store fails, before the spool is written back: gives the reserve back
    /// (`HistoryReserve`), gives the WAL's blocks back to the file system (a TRUNCATE
    /// checkpoint) and applies the retention. A history that fills its disk by itself (its rows
    /// past the retention bound, its WAL) otherwise stays full for good: the spool's write-back
    /// needs the room that only the retention would make, the retention needs WAL space, and
    /// it waited for an empty spool. Any step may fail for want of room; what succeeds is
    /// kept. At most every `makeRoomIntervalMs`.
    private func makeRoom(_ store: any HistoryStoring, now: Int64) {
        guard health.state == .failing, now >= nextMakeRoomMs, let history = store as? ViolationHistory else { return }
        nextMakeRoomMs = now + Self.makeRoomIntervalMs
        if reserve?.giveBack() == true {
            logger.notice(
                "the history store fails: its reserve is given back to make room",
                metadata: [
                    "bytes": "\(HistoryReserve.defaultBytes)"
                ]
            )
        }
        let truncated = (try? history.checkpointTruncating()) != nil
        var pruned = 0
        if let deleted = applyRetention(history) {
            pruned = deleted
            statistics.historyPruned.add(UInt64(deleted), ordering: .relaxed)
            if deleted > 0 { _ = try? history.checkpointTruncating() }
        }
        logger.debug(
            "made room in the history while it fails",
            metadata: [
                "wal_truncated": "\(truncated)", "pruned": "\(pruned)",
            ]
        )
    }

    private func spoolViolations(_ bytes: UnsafeRawBufferPointer) {
        var reader = OutboundBatchReader(bytes)
        var start = 0
        var lost: UInt64 = 0
        while let record = reader.next() {
            defer { start = reader.offset }
            guard case .violation = record else { continue }
            if !spool.append(UnsafeRawBufferPointer(rebasing: bytes[start..<reader.offset])) { lost += 1 }
        }
        publishSpoolFigures()
        guard lost > 0 else { return }
        health.unstored.add(lost, ordering: .relaxed)
        unstoredSinceNotice += lost
        let now = PosixClock.monotonic.milliseconds()
        if now - lastSpoolFullLogMs >= 10_000 {
            lastSpoolFullLogMs = now
            logger.error(
                "the violation spool is full; violations are published but not stored (counted as violations_unstored)",
                metadata: [
                    "unstored_total": "\(health.unstored.load(ordering: .relaxed))",
                    "spool_memory_bytes": "\(spool.memoryLimit)", "spool_file_bytes": "\(spool.fileLimit)",
                ]
            )
        }
    }

    private func failed(_ error: any Error, now: Int64) {
        let text = HistoryStoreError.oneLine(error)
        statistics.storeFailures.add(1, ordering: .relaxed)
        health.lastErrorText = text
        nextRetryMs = now + Self.retryIntervalMs
        if health.state != .failing {
            health.state = .failing
            health.outages.add(1, ordering: .relaxed)
            failedSince = now
            logger.error(
                "the history store cannot write; violations are published and spooled until it can",
                metadata: [
                    "error": "\(text)", "path": "\(path)",
                ]
            )
        }
    }

    private func publishSpoolFigures() {
        if spool.damagedRecords > damagedCounted {
            // A damaged record held a violation that was published: it is lost, and counted so.
            let new = spool.damagedRecords - damagedCounted
            damagedCounted = spool.damagedRecords
            health.unstored.add(UInt64(new), ordering: .relaxed)
            health.spoolDamaged.store(UInt64(damagedCounted), ordering: .relaxed)
        }
        health.spooled.store(UInt64(spool.count), ordering: .relaxed)
        health.spoolMemoryBytes.store(UInt64(spool.memoryBytes), ordering: .relaxed)
        health.spoolFileBytes.store(UInt64(spool.fileBytes), ordering: .relaxed)
    }
}
