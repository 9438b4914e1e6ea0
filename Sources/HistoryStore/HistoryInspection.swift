import Foundation
import GRDB

/// What a history file found at start is (docs/RELIABILITY.md, "A damaged history"):
/// checked with `PRAGMA quick_check` and against the schema before the daemon writes to it.
public enum HistoryInspection: Equatable, Sendable {
    /// No file, or an empty one: the daemon creates it.
    case absent
    /// A modalwatch history that passes the check.
    case sound
    /// Not readable as a database, or failing the integrity check; the reason in one line.
    case damaged(String)
    /// A sound database that is not a modalwatch history; what differs, in one line.
    case foreign(String)
    /// A modalwatch history of a version this release does not read; which, in one line (after
    /// "the history PATH").
    case unsupported(String)

    /// The tables a modalwatch history has: the violations, and while 0.1.0's file is converted,
    /// its rows set aside (and, before, GRDB's migrations).
    static let ownTables: Set<String> = [
        HistorySchema.sqliteTableName, "violations", HistorySchema.releasedTable, "grdb_migrations",
    ]

    /// Inspects the file at `path` read-only, without changing it.
    public static func inspect(path: String) -> HistoryInspection {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return .absent }
        if (attributes[.size] as? NSNumber)?.intValue == 0 { return .absent }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "modalwatch.history.inspect"
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? database.close() }
            return try database.read { db -> HistoryInspection in
                let check = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
                if check != ["ok"] {
                    // One line: SQLite puts a line break between the findings of one row.
                    let findings = check.flatMap { $0.split(whereSeparator: \.isNewline) }
                        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("***") }
                    return .damaged("the integrity check failed: " + findings.prefix(2).joined(separator: "; "))
                }
                let tables = Set(
                    try String.fetchAll(
                        db,
                        sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                    )
                )
                if tables.isEmpty { return .absent }
                // A file that says its version (an older build's segments, a later release's) is named by it.
                let version = try HistoryFileVersion(db)
                let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                let versioned = tables.contains("grdb_migrations") || userVersion != 0
                if versioned, case .unsupported(let what) = version { return .unsupported(what) }
                let strangers = tables.subtracting(ownTables).sorted()
                if !strangers.isEmpty {
                    return .foreign(
                        "it has tables a modalwatch history does not have: \(strangers.prefix(5).joined(separator: ", "))"
                    )
                }
                // 0.1.0's file: its `violations` table; the current one: `violation_rows` (and the view).
                // (A file with a `violations` table and nothing else of ours has its columns named.)
                let ours = version != .released && tables.contains(HistorySchema.sqliteTableName)
                let table = ours ? HistorySchema.sqliteTableName : "violations"
                guard tables.contains(table) else { return .foreign("it has no \(table) table") }
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_xinfo(\(table))").map { $0["name"] as String }
                let expected = ours ? Set(HistorySchema.writtenColumns) : HistorySchema.releasedColumns
                if Set(columns) != expected {
                    let odd = Set(columns).symmetricDifference(expected).sorted().prefix(5).joined(separator: ", ")
                    return .foreign("its \(table) table has other columns (\(odd))")
                }
                if case .unsupported(let what) = version { return .unsupported(what) }
                return .sound
            }
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            return .damaged(HistoryStoreError.oneLine(error))
        } catch {
            return .damaged(HistoryStoreError.oneLine(error))
        }
    }
}
