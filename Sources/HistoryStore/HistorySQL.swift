/// The statements of the history's questions over the common schema (docs/spec/history.md), in
/// one store's words: the one reader that `modalwatch violations` (`--state-dir` or
/// `--postgresql`), the control socket's `violations` and `session`, the report and the retention
/// share. The SQLite store runs them through GRDB, the PostgreSQL store through libpq.
package struct HistorySQL: Sendable {
    /// A statement's argument.
    package enum Argument: Sendable, Equatable {
        case text(String)
        case integer(Int64)
    }

    /// A statement and its arguments, numbered from 1 in order.
    package struct Statement: Sendable, Equatable {
        package var sql: String
        package var arguments: [Argument]
    }

    /// The table of violations.
    package let table: String
    /// `?` for SQLite, `$` for PostgreSQL: the prefix of a numbered parameter.
    private let parameterPrefix: String
    /// A row's `locale` (docs/spec/history.md: read from its JSON), in this store's words.
    private let localeExpression: String

    /// SQLite's words: the table `violation_rows` (beneath the view `violations`), `?1`.
    package static let sqlite = HistorySQL(
        table: HistorySchema.sqliteTableName,
        parameterPrefix: "?",
        localeExpression: "json_extract(json, '$.locale')"
    )
    /// PostgreSQL's: `modalwatch_violation_rows` (beneath `modalwatch_violations`), `$1`.
    package static let postgresql = HistorySQL(
        table: "modalwatch_violation_rows",
        parameterPrefix: "$",
        localeExpression: "(json::jsonb ->> 'locale')"
    )

    /// The columns a `StoredViolation` is read from (`storedViolation`), in this order.
    package static let violationColumns = "seq, id, fingerprint, rule, app, session, severity, ts, observed, json"
    /// The columns a `ScannedViolation` is read from, in this order.
    package static let scannedColumns = "rule, app, session, severity, ts, json"

    /// Violations matching `query` after `cursor`, newest first (`seq` descending), at most
    /// `query.limit` (none when 0 or less). `seqFloor`: no row below this `seq` matches (the SQLite
    /// store's bound for `sinceObserved`, found by binary search; nil elsewhere). `sessionBucket`:
    /// only the rows of that bucket of sequence numbers (`seq >> HistorySchema.sessionBucketShift`,
    /// the first part of SQLite's `violations_session`).
    package func page(
        _ query: HistoryQuery,
        after cursor: HistoryPage.Cursor?,
        seqFloor: Int64? = nil,
        sessionBucket: Int64? = nil
    ) -> Statement {
        var clauses = Clauses(prefix: parameterPrefix)
        if let sessionBucket { clauses.add("seq >> \(HistorySchema.sessionBucketShift) = ", .integer(sessionBucket)) }
        if let app = query.app { clauses.add("app = ", .text(app)) }
        if let rule = query.rule { clauses.add("rule = ", .text(rule)) }
        if let session = query.session { clauses.add("session = ", .text(session)) }
        if let locale = query.locale {
            // The tag itself, or a tag that extends it by a subtag: `de` is `de` or `de-…`.
            let first = clauses.parameter(.text(locale))
            let extended = clauses.parameter(.text(locale + "-"))
            clauses.parts.append(
                "(\(localeExpression) = \(first) OR substr(\(localeExpression), 1, \(locale.count + 1)) = \(extended))"
            )
        }
        if let since = query.sinceObserved { clauses.add("observed >= ", .integer(since)) }
        if let seqFloor { clauses.add("seq >= ", .integer(seqFloor)) }
        if let cursor { clauses.add("seq < ", .integer(cursor.rowid)) }
        let sql =
            "SELECT \(Self.violationColumns) FROM \(table)\(clauses.whereClause) ORDER BY seq DESC LIMIT \(max(0, query.limit))"
        return Statement(sql: sql, arguments: clauses.arguments)
    }

    /// At most `limit` violations stored after `seq` (0: from the oldest), oldest first: the
    /// storing order, page by page through the primary key (`modalwatch history import`).
    package func oldestFirst(after seq: Int64, limit: Int) -> Statement {
        Statement(
            sql:
                "SELECT \(Self.violationColumns) FROM \(table) WHERE seq > \(parameterPrefix)1 ORDER BY seq LIMIT \(max(0, limit))",
            arguments: [.integer(seq)]
        )
    }

    /// Every violation of `app` (all when nil) with event time in `[sinceTs, untilTs)`, in no
    /// particular order.
    package func scan(app: String?, sinceTs: Int64?, untilTs: Int64?) -> Statement {
        var clauses = Clauses(prefix: parameterPrefix)
        if let app { clauses.add("app = ", .text(app)) }
        if let sinceTs { clauses.add("ts >= ", .integer(sinceTs)) }
        if let untilTs { clauses.add("ts < ", .integer(untilTs)) }
        return Statement(
            sql: "SELECT \(Self.scannedColumns) FROM \(table)\(clauses.whereClause)",
            arguments: clauses.arguments
        )
    }

    /// Deletes at most `slice` of the violations observed before `cut`, the oldest first, through
    /// the `observed` index.
    package func deleteObserved(before cut: Int64, slice: Int) -> Statement {
        Statement(
            sql:
                "DELETE FROM \(table) WHERE seq IN (SELECT seq FROM \(table) WHERE observed < \(parameterPrefix)1 ORDER BY observed LIMIT \(max(1, slice)))",
            arguments: [.integer(cut)]
        )
    }

    /// Deletes at most `slice` of the violations numbered `last` or lower, the oldest first.
    package func deleteSequences(through last: Int64, slice: Int) -> Statement {
        Statement(
            sql:
                "DELETE FROM \(table) WHERE seq IN (SELECT seq FROM \(table) WHERE seq <= \(parameterPrefix)1 ORDER BY seq LIMIT \(max(1, slice)))",
            arguments: [.integer(last)]
        )
    }

    /// The newest sequence number (NULL when empty).
    package var newestSequence: String { "SELECT MAX(seq) FROM \(table)" }

    /// Violations stored.
    package var count: String { "SELECT COUNT(*) FROM \(table)" }

    /// `WHERE` clauses joined by `AND`, each with one numbered parameter.
    private struct Clauses {
        let prefix: String
        var parts: [String] = []
        var arguments: [Argument] = []

        mutating func add(_ condition: String, _ argument: Argument) {
            parts.append(condition + parameter(argument))
        }

        /// Adds `argument` and returns its parameter (`?3`, `$3`), for a condition that uses it.
        mutating func parameter(_ argument: Argument) -> String {
            arguments.append(argument)
            return prefix + String(arguments.count)
        }

        var whereClause: String { parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND ") }
    }
}
