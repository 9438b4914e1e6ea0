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

    /// The tables a modalwatch history has.
    static let ownTables: Set<String> = ["violations", "grdb_migrations", "segments", "segment_apps", "segment_rules", "segment_sessions",
                                             "segment_session_sets", "session_filters"]
    /// The columns of the `violations` table of a file of schema v4 or older, or of one whose
    /// conversion to segments has not ended (v1 and v2 name them alike; v3 adds `seq`).
    static let ownColumns: Set<String> = ["id", "fingerprint", "rule", "app", "session", "severity", "ts", "observed", "json"]
    /// The columns of a v3 table.
    static let ownColumnsV3 = ownColumns.union(["seq"])
    /// The migrations it may have applied.
    static let ownMigrations: Set<String> = ["v1", "v2", "v3", "v4", "v5", "v6"]

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
                let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
                if tables.isEmpty { return .absent }
                let strangers = tables.subtracting(ownTables).sorted()
                if !strangers.isEmpty {
                    return .foreign("it has tables a modalwatch history does not have: \(strangers.prefix(5).joined(separator: ", "))")
                }
                guard tables.contains("violations") || tables.contains("segments") else {
                    return .foreign("it has neither a segments nor a violations table")
                }
                guard tables.contains("violations") else { return .sound }
                let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(violations)").map { $0["name"] as String })
                if columns != ownColumns && columns != ownColumnsV3 {
                    let odd = columns.symmetricDifference(ownColumns).sorted().prefix(5).joined(separator: ", ")
                    return .foreign("its violations table has other columns (\(odd))")
                }
                if tables.contains("grdb_migrations") {
                    let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
                    let unknown = applied.subtracting(ownMigrations).sorted()
                    if !unknown.isEmpty {
                        return .foreign("it has schema versions this modalwatchd does not know (\(unknown.prefix(3).joined(separator: ", "))); a newer release wrote it")
                    }
                }
                return .sound
            }
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            return .damaged(HistoryStoreError.oneLine(error))
        } catch {
            return .damaged(HistoryStoreError.oneLine(error))
        }
    }
}
