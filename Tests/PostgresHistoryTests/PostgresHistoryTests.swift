import Foundation
import HistoryStore
import PostgresHistory
import Synchronization
import Testing

/// The PostgreSQL store against a real server started for these tests.
@Suite(.serialized)
final class PostgresHistoryTests {
    let server: ThrowawayPostgres

    init() throws { server = try ThrowawayPostgres.shared() }

    private func row(
        _ n: Int,
        app: String = "com.example.a",
        rule: String = "alert-frequency",
        session: String? = nil,
        ts: Int64? = nil,
        observed: Int64? = nil
    ) -> StoredViolation {
        let id = String(format: "%016llx%016llx", UInt64(n) &* 0x9E37_79B9_7F4A_7C15, UInt64(n))
        return StoredViolation(
            id: id,
            fingerprint: String(format: "%016llx", UInt64(n) * 7),
            rule: rule,
            app: app,
            session: session ?? "s\(n % 3)",
            severity: "warning",
            ts: ts ?? Int64(1_000 + n),
            observed: observed ?? Int64(2_000 + n),
            json: "{\"id\":\"\(id)\",\"n\":\(n),\"text\":\"tab\\there \\\\ \\\"quoted\\\"\"}"
        )
    }

    @Test func aLocaleFindsItsTagAndTheTagsThatExtendItOnly() throws {
        let history = try PostgresHistory(conninfo: try server.makeDatabase(), writer: true)
        let locales: [String?] = ["de", "de-DE", "de-CH", "dev", "en-US", nil, "zh-Hans-CN"]
        try history.insert(
            locales.enumerated().map { n, locale in
                var stored = row(n)
                stored.json = "{\"id\":\"\(stored.id)\"" + (locale.map { ",\"locale\":\"\($0)\"" } ?? "") + "}"
                return stored
            }
        )
        func found(_ locale: String) throws -> [String] {
            try history.find(HistoryQuery(locale: locale, limit: 100)).map(\.id).sorted()
        }
        #expect(try found("de") == [0, 1, 2].map { row($0).id }.sorted())
        #expect(try found("de-CH") == [row(2).id])
        #expect(try found("zh-Hans") == [row(6).id])
        #expect(try found("fr") == [])
    }

    @Test func storesOnceAndReadsNewestFirst() throws {
        let conninfo = try server.makeDatabase()
        let history = try PostgresHistory(conninfo: conninfo, writer: true)
        #expect(history.migrationsApplied == [2])
        let rows = (0..<50).map { row($0) }
        try history.insert(rows)
        // A retried batch (the spool written back after a commit whose answer was lost) stores nothing twice.
        try history.insert(Array(rows[40...]) + [row(50)])
        #expect(try history.count() == 51)
        // A second writer (another daemon) retrying the same violations: still once.
        let other = try PostgresHistory(conninfo: conninfo, writer: true)
        #expect(other.migrationsApplied == [])
        try other.insert(Array(rows[..<10]))
        #expect(try history.count() == 51)

        let reader = try PostgresHistory(conninfo: conninfo, writer: false)
        let newest = try reader.find(HistoryQuery(limit: 5))
        #expect(newest.map(\.id) == [50, 49, 48, 47, 46].map { row($0).id })
        #expect(newest.first == row(50))
        let ofApp = try reader.find(HistoryQuery(session: "s1", limit: 100))
        #expect(ofApp.map(\.id) == (0...50).reversed().filter { $0 % 3 == 1 }.map { row($0).id })
        let since = try reader.find(HistoryQuery(sinceObserved: 2_045, limit: 100))
        #expect(since.count == 6)
        // Pages: every row once, in order.
        var cursor: HistoryPage.Cursor?
        var paged: [String] = []
        repeat {
            let page = try reader.findPage(HistoryQuery(limit: 7), after: cursor, maxBytes: 1 << 20)
            paged += page.rows.map(\.id)
            cursor = page.next
        } while cursor != nil
        #expect(paged == (0...50).reversed().map { row($0).id })
    }

    /// `writeCounting` says how many of a batch went in and how many were there already
    /// (`modalwatch history import`'s counts); each read row carries the `seq` it was stored at.
    @Test func writeCountingTellsInsertedFromAlreadyThere() throws {
        let conninfo = try server.makeDatabase()
        let history = try PostgresHistory(conninfo: conninfo, writer: true)
        let rows = (0..<20).map { row($0) }
        let first = try history.writeCounting { writer in for row in rows[..<12] { try writer.insert(row) } }
        #expect(first.handed == 12 && first.inserted == 12)
        let second = try history.writeCounting { writer in for row in rows { try writer.insert(row) } }
        #expect(second.handed == 20 && second.inserted == 8)
        let again = try history.writeCounting { writer in for row in rows { try writer.insert(row) } }
        #expect(again.handed == 20 && again.inserted == 0)
        #expect(try history.count() == 20)
        let newest = try history.find(HistoryQuery(limit: 20))
        #expect(newest.map(\.id) == rows.reversed().map(\.id))
        #expect(newest.map(\.seq) == newest.map(\.seq).sorted(by: >) && Set(newest.map(\.seq)).count == 20)
    }

    /// The table has `HistorySchema.columns`, in order, as the SQLite file does (docs/spec/history.md),
    /// and its generated columns are the published fields.
    @Test func theTableHasTheSchemasColumnsAndGeneratesTheFields() throws {
        let conninfo = try server.makeDatabase()
        let history = try PostgresHistory(conninfo: conninfo, writer: true)
        let columns = try server.sql(
            conninfo,
            """
            SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns
            WHERE table_name = 'modalwatch_violations'
            """
        )
        #expect(columns.split(separator: ",").map(String.init) == HistorySchema.columns)
        var violation = row(1)
        violation.json =
            #"{"id":"\#(violation.id)","module":"overuse","edition":"ios7","subject":null,"locale":"ja-JP","message":"m","suggestion":"s"}"#
        try history.insert([violation])
        #expect(
            try server.sql(
                conninfo,
                "SELECT concat_ws('|', module, edition, coalesce(subject, '-'), locale, message, suggestion) FROM modalwatch_violations"
            )
                == "overuse|ios7|-|ja-JP|m|s"
        )
    }

    @Test func textWithCopysSpecialBytesComesBackAsItWent() throws {
        let conninfo = try server.makeDatabase()
        let history = try PostgresHistory(conninfo: conninfo, writer: true)
        var odd = row(1, app: "com.example.tab\there\\back\nnew\rline", session: "s\\.N")
        odd.json = "{\"message\":\"a\\tb \\\\ c\",\"é\":\"ü 😀\"}"
        var withNUL = row(2, session: "nul\u{0}inside")
        withNUL.rule = "rule\u{0}"
        try history.insert([odd, withNUL])
        let back = try history.find(HistoryQuery(limit: 10))
        #expect(back.last == odd)
        // PostgreSQL's text holds no NUL: it is stored as U+FFFD.
        #expect(back.first?.session == "nul\u{FFFD}inside")
        #expect(back.first?.rule == "rule\u{FFFD}")
    }

    @Test func scansAnAppsEventTimeRange() throws {
        let conninfo = try server.makeDatabase()
        let history = try PostgresHistory(conninfo: conninfo, writer: true)
        try history.insert((0..<30).map { row($0, app: $0 % 2 == 0 ? "com.example.even" : "com.example.odd") })
        var seen: [(String, String)] = []
        try history.scan(app: "com.example.even", sinceTs: 1_010, untilTs: 1_020) { violation, json in
            seen.append((violation.app, String(decoding: json, as: UTF8.self)))
        }
        #expect(seen.count == 5)
        #expect(seen.allSatisfy { $0.0 == "com.example.even" })
        #expect(Set(seen.map(\.1)) == Set([10, 12, 14, 16, 18].map { row($0).json }))
    }

    @Test func daemonsStartingAtOnceMigrateOnce() throws {
        let conninfo = try server.makeDatabase()
        let applied = Mutex([Int]())
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let history = try? PostgresHistory(conninfo: conninfo, writer: true) {
                applied.withLock { $0 += history.migrationsApplied }
            }
        }
        #expect(applied.withLock { $0 } == [2])
        #expect(try server.sql(conninfo, "SELECT string_agg(version::text, ',') FROM modalwatch_schema_version") == "2")
    }

    @Test func retentionRunsWhereTheLockIsTaken() throws {
        let conninfo = try server.makeDatabase()
        let history = try PostgresHistory(conninfo: conninfo, writer: true)
        try history.insert((0..<100).map { row($0, observed: Int64(10_000 + $0)) })
        // Another daemon holds the retention lock: this one deletes nothing.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        holder.arguments = [
            conninfo, "-qAtc",
            "BEGIN; SELECT pg_advisory_xact_lock(\(0x6D77_6869_7374_0002)); SELECT pg_sleep(3); COMMIT",
        ]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        var held = false
        for _ in 0..<50 where !held {
            held = try server.sql(conninfo, "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'") != "0"
            if !held { usleep(50_000) }
        }
        #expect(held)
        #expect(try history.prune(now: 20_000, maxAgeMs: 1_000, maxRows: 10) == 0)
        #expect(try history.count() == 100)
        holder.waitUntilExit()
        // By rows: the newest 60 stay. By age: observed before 10,050 goes.
        #expect(try history.prune(now: 20_000, maxAgeMs: nil, maxRows: 60) == 40)
        #expect(try history.find(HistoryQuery(limit: 1000)).map(\.id) == (40..<100).reversed().map { row($0).id })
        #expect(try history.prune(now: 11_050, maxAgeMs: 1_000, maxRows: nil) == 10)
        #expect(try history.count() == 50)
    }

    @Test func aReaderOfADatabaseWithoutAHistorySaysSo() throws {
        let conninfo = try server.makeDatabase()
        #expect {
            _ = try PostgresHistory(conninfo: conninfo, writer: false)
        } throws: { "\($0)".contains("holds no modalwatch history") }
    }

    @Test func aServerAwayIsAOneLineError() throws {
        let conninfo = "host=\(server.directory)/nowhere user=modalwatch dbname=postgres"
        #expect {
            _ = try PostgresHistory(conninfo: conninfo, writer: true)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("cannot connect to PostgreSQL:") && !text.contains("\n")
        }
    }

    @Test func aConfiguredPasswordIsRefusedAndNeverShown() throws {
        #expect(throws: PostgresError.self) {
            try PostgresConninfo.check("host=/run/postgresql password=secret", passwordAllowed: false)
        }
        #expect(throws: PostgresError.self) {
            try PostgresConninfo.check("postgresql://u:secret@db/modalwatch", passwordAllowed: false)
        }
        #expect(throws: PostgresError.self) { try PostgresConninfo.check("host=/run nonsense", passwordAllowed: true) }
        try PostgresConninfo.check("host=/run/postgresql dbname=modalwatch", passwordAllowed: false)
        #expect(!PostgresConninfo.redacted("postgresql://u:secret@db/modalwatch").contains("secret"))
        #expect(PostgresConninfo.redacted("host=/run/postgresql dbname=modalwatch").contains("dbname=modalwatch"))
    }
}
