import Foundation
import GRDB
public import HistoryStore

/// History files as 0.1.0 wrote them, for the tests of their conversion: the schema is
/// `Tests/Fixtures/history/0.1.0.sql`, which the end-to-end tests read too.
public enum HistoryFixtures: Sendable {
    /// `Tests/Fixtures/history/0.1.0.sql`.
    public static let releasedSchemaPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/history/0.1.0.sql").path

    /// Writes a 0.1.0 file at `path` (WAL) holding `rows` in order, as 0.1.0 inserted them (ids
    /// and fingerprints as big-endian BLOBs; `INSERT OR IGNORE`).
    public static func makeReleased(at path: String, rows: [StoredViolation]) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let schema = try String(contentsOfFile: releasedSchemaPath, encoding: .utf8)
        try queue.write { db in
            try db.execute(sql: schema)
            for row in rows {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO violations (id, fingerprint, rule, app, session, severity, ts, observed, json)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        blob(row.id), blob(row.fingerprint), row.rule, row.app, row.session, row.severity, row.ts,
                        row.observed, row.json,
                    ]
                )
            }
        }
        try queue.close()
    }

    /// The bytes of hex digits (a text that is not hex stays a text, as a hand-made row would).
    private static func blob(_ hex: String) -> (any DatabaseValueConvertible) {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0,
            let bytes = stride(from: 0, to: digits.count, by: 2).map({ index -> UInt8? in
                UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16)
            }) as [UInt8?]?, !bytes.contains(nil)
        else { return hex }
        return Data(bytes.compactMap { $0 })
    }
}
