import ArgumentParser
import HistoryStore
import PostgresHistory

/// `modalwatch history import`: every violation of a state directory's SQLite history copied
/// into the shared history in PostgreSQL, oldest first, a batch a transaction. The schema is
/// created or migrated as the daemon does it (an empty database is fine); a violation whose `id`
/// the database holds is skipped (`ON CONFLICT (id) DO NOTHING`), so a second run inserts none,
/// and a run stopped half-way goes on where it ended when run again.
struct HistoryImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy every violation of an SQLite history into the shared history in PostgreSQL.",
        discussion: """
            Reads the history file in --state-dir oldest first and stores it in --postgresql in batches of \
            --batch violations, one transaction each, creating the schema in an empty database. A violation \
            whose id is there already is skipped: running it again inserts 0. Progress (read, inserted, \
            already there) goes to stderr (in place on a terminal, else a line every 100000 rows), then one summary line.
            """
    )

    @Option(name: .customLong("state-dir"), help: "The state directory whose history.sqlite is read.")
    var stateDir: String

    @Option(
        name: .customLong("postgresql"),
        help: "The PostgreSQL database to store into (a libpq connection string or URI)."
    )
    var postgresql: String

    @Option(name: .long, help: "Violations a transaction, 1 to 10000.")
    var batch: Int = 2000

    func validate() throws {
        if batch < 1 || batch > 10_000 { throw ValidationError("--batch must be 1 to 10000, not \(batch)") }
    }

    func run() throws {
        let source = try HistoryAccess.stateDirectory(stateDir)
        let path = HistoryAccess.path(inStateDirectory: stateDir)
        let target = try HistoryAccess.postgresql(
            postgresql,
            writer: true,
            applicationName: "modalwatch history import"
        )
        let name = "PostgreSQL (\(PostgresConninfo.redacted(postgresql)))"
        let progress = HistoryProgress()
        var read = 0
        var inserted = 0
        var already = 0
        var after: Int64 = 0
        func counts() -> String { "\(read) read, \(inserted) inserted, \(already) already there" }
        while true {
            let rows: [StoredViolation]
            do {
                rows = try source.oldestFirst(after: after, limit: batch)
            } catch {
                progress.clear()
                Terminal.error(
                    "cannot read the history at \(path) after \(read) rows: \(error) (\(counts()); run it again to go on)"
                )
                throw ExitCode(2)
            }
            guard let last = rows.last else { break }
            do {
                let stored = try target.writeCounting { writer in
                    for row in rows { try writer.insert(row) }
                }
                inserted += stored.inserted
                already += stored.handed - stored.inserted
            } catch {
                progress.clear()
                Terminal.error(
                    "cannot store into \(name): \(error) (\(counts()); run it again to go on); \(HistoryAccess.hint(for: error, writing: true))"
                )
                throw ExitCode(2)
            }
            read += rows.count
            after = last.seq
            progress.update(rows: read, "importing: \(counts())")
        }
        progress.finish("imported \(path) into \(name): \(counts())")
    }
}
