import GRDB

/// Counts the frames (pages) each commit adds to a history's WAL, for measurements: after
/// each call it checkpoints everything (PASSIVE, on its own connection), so that the writer's
/// next commit starts the WAL over and the WAL's frame count after it is that commit's pages.
/// Used by `modalwatch-bench` (the store's figures) and the store's tests; not by the daemon.
public struct WALFrameCounter: Sendable {
    private let database: DatabaseQueue

    /// Opens its own connection to the history at `path` (which must exist, in WAL mode).
    public init(path: String) throws {
        database = try DatabaseQueue(path: path)
    }

    /// The file's page size: a WAL frame is one page.
    public func pageSize() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0 }
    }

    /// Frames in the WAL now (the commits since the last call), then checkpoints them all.
    /// Throws `HistoryStoreError` if the checkpoint could not move every frame (another
    /// connection reading).
    public func framesSinceLastCall() throws -> Int {
        try database.writeWithoutTransaction { db in
            let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
            let log: Int = row?[1] ?? 0
            let done: Int = row?[2] ?? 0
            guard log == done else {
                throw HistoryStoreError(
                    "the checkpoint moved \(done) of \(log) WAL frames (another connection is reading)"
                )
            }
            return log
        }
    }
}
