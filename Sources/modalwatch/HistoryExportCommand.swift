import ArgumentParser
import Foundation
import Glibc
import HistoryStore
import ModalwatchConfig
import Posix
import PostgresHistory

/// `modalwatch history export`: every violation of a history (SQLite or PostgreSQL), newest
/// first, as NDJSON (each violation exactly as published) or CSV (the columns of
/// docs/spec/history.md), page by page: memory stays flat however many there are.
struct HistoryExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every violation of the history, newest first, as NDJSON or CSV.",
        discussion: """
            Reads the history file in --state-dir, or the shared history in --postgresql, a page at a time \
            (no limit on the rows, flat memory). NDJSON: each violation exactly as it was published, one a line. \
            CSV: a header, then one record a violation with the columns of the history's view (docs/spec/history.md), \
            RFC 4180 quoting, CRLF line ends. Progress goes to stderr (in place on a terminal, else a line every \
            100000 rows), then one summary line.
            """
    )

    /// What `--format` names.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case ndjson, csv
    }

    @Option(
        name: .customLong("state-dir"),
        help: "Export the history file in this folder (the daemon's state directory)."
    )
    var stateDir: String?

    @Option(
        name: .customLong("postgresql"),
        help: "Export the shared history in this PostgreSQL database (a libpq connection string or URI)."
    )
    var postgresql: String?

    @Option(name: .long, help: "ndjson (each violation as published) or csv (the columns of docs/spec/history.md).")
    var format: Format = .ndjson

    @Option(name: .long, help: "Only violations found within this long, e.g. 15m, 2h, 7d.")
    var since: String?

    @Option(name: .long, help: "Write to this file (made whole: FILE.partial, renamed when done) instead of stdout.")
    var output: String?

    /// Rows read in one page.
    static let pageRows = 1000
    /// JSON bytes one page holds at most, past its first row.
    static let pageBytes = 1 << 20

    func validate() throws {
        if stateDir != nil && postgresql != nil { throw ValidationError("give --state-dir or --postgresql, not both") }
        if stateDir == nil && postgresql == nil {
            throw ValidationError("name the history: --state-dir DIR or --postgresql CONNINFO")
        }
        if let since, DurationParser.milliseconds(since) == nil {
            throw ValidationError("--since must be a duration such as 15m, 2h or 7d")
        }
        if output == "" { throw ValidationError("--output needs a file name") }
    }

    func run() throws {
        let history: any HistoryReading
        let name: String
        if let postgresql {
            history = try HistoryAccess.postgresql(postgresql, writer: false)
            name = "PostgreSQL (\(PostgresConninfo.redacted(postgresql)))"
        } else {
            history = try HistoryAccess.stateDirectory(stateDir!)
            name = HistoryAccess.path(inStateDirectory: stateDir!)
        }
        let out: ExportOutput
        do {
            out = try ExportOutput(path: output)
        } catch {
            Terminal.error("cannot write to '\(output ?? "-")': \(error)")
            throw ExitCode(2)
        }
        let sinceObserved = since.flatMap(DurationParser.milliseconds).map {
            Int64(Date().timeIntervalSince1970 * 1000) - $0
        }
        let query = HistoryQuery(sinceObserved: sinceObserved, limit: Self.pageRows)
        let progress = HistoryProgress(outputOnTerminal: out.isTerminal)
        // A reader of the pipe that stops (`| head`) is seen as EPIPE, not a signal: the export ends, exit 0.
        if out.path == nil { signal(SIGPIPE, SIG_IGN) }
        var rows = 0
        var cursor: HistoryPage.Cursor?
        do {
            if format == .csv { try write(HistoryCSV.header, to: out) }
            repeat {
                let page: HistoryPage
                do {
                    page = try history.findPage(query, after: cursor, maxBytes: Self.pageBytes)
                } catch {
                    progress.clear()
                    let hint = postgresql == nil ? "" : "; " + HistoryAccess.hint(for: error)
                    Terminal.error("cannot read the history in \(name) after \(rows) rows: \(error)\(hint)")
                    throw ExitCode(2)
                }
                for row in page.rows {
                    switch format {
                    case .ndjson: try write(row.json, to: out)
                    case .csv: try write(HistoryCSV.record(row), to: out)
                    }
                }
                rows += page.rows.count
                progress.update(rows: rows, "exported \(rows) violations")
                cursor = page.rows.isEmpty ? nil : page.next
            } while cursor != nil
            try finish(out)
        } catch let stopped as OutputStopped {
            progress.clear()
            // A reader that went away (`| head`) is not an error.
            if stopped.error.errno == EPIPE { throw ExitCode(0) }
            Terminal.error("cannot write to '\(output ?? "-")' after \(rows) rows: \(stopped.error)")
            throw ExitCode(2)
        }
        progress.finish("exported \(rows) violations (\(format.rawValue)) from \(name) → \(output ?? "stdout")")
    }

    /// A write of the export that failed.
    private struct OutputStopped: Error {
        let error: PosixError
    }

    private func write(_ bytes: [UInt8], to out: ExportOutput) throws(OutputStopped) {
        do { try out.write(bytes) } catch { throw OutputStopped(error: error) }
    }

    private func write(_ json: String, to out: ExportOutput) throws(OutputStopped) {
        do { try out.writeJSONLine(json) } catch { throw OutputStopped(error: error) }
    }

    private func finish(_ out: ExportOutput) throws(OutputStopped) {
        do { try out.finish() } catch { throw OutputStopped(error: error) }
    }
}
