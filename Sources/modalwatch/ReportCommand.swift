import ArgumentParser
import EventDecoding
import Foundation
import HistoryStore
import ModalwatchConfig
import PostgresHistory
import Report
import RuleHost
import SessionEngine

/// `modalwatch report`: one self-contained HTML page with charts, from recorded streams judged
/// offline, from the history file, or from running daemons. The counting and drawing live in the
/// Report module; this command reads the source and writes the file.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one self-contained HTML report with charts, for designers.",
        discussion: """
            From recorded streams (FILE..., judged offline as `check` does), from the history file \
            (--state-dir DIR), from the history every daemon shares in PostgreSQL (--postgresql CONNINFO) or from running daemons (--control EP, repeatable; with no source, the daemon \
            `violations` finds: $MODALWATCH_CONTROL, the config file's control:, else the default). --since and --until take \
            a duration before now (15m, 2h, 7d), a date (2024-11-22) or a UTC time (2024-11-22T15:00:00Z), \
            and filter by event time. Exit status: 0 written, 2 bad usage, unreadable input or unwritable \
            output, 3 a daemon unreachable. docs/report.md says what each source can show.
            """
    )

    @Argument(help: "NDJSON files of events to judge offline (- for stdin).")
    var files: [String] = []

    @Option(name: .long, help: "The HTML file to write.")
    var output: String

    @Option(name: .long, help: "Only this app (bundle id).")
    var app: String?

    @Option(
        name: .long,
        help: "Only event times at or after this: 15m, 2h, 7d (before now), 2024-11-22 or 2024-11-22T15:00:00Z."
    )
    var since: String?

    @Option(name: .long, help: "Only event times before this (same forms as --since).")
    var until: String?

    @Option(name: .customLong("state-dir"), help: "Read the history file in this folder (no daemon needed).")
    var stateDir: String?

    @Option(
        name: .customLong("postgresql"),
        help:
            "Read the shared history in this PostgreSQL database (a libpq connection string or URI; no daemon needed)."
    )
    var postgresql: String?

    @Option(name: .long, help: "A running daemon's control endpoint (repeatable: sharded daemons are merged).")
    var control: [String] = []

    @Option(name: .long, help: "Milliseconds to wait for each daemon reply before giving up (exit 3).")
    var timeout: Int = 10_000

    @Option(name: .long, help: "Sessions drawn as timelines.")
    var worst: Int = 5

    @OptionGroup var rules: RuleSelectionOptions

    func validate() throws {
        let sources =
            (files.isEmpty ? 0 : 1) + (stateDir == nil ? 0 : 1) + (postgresql == nil ? 0 : 1)
            + (control.isEmpty ? 0 : 1)
        if sources > 1 {
            throw ValidationError("use one source at a time: FILEs, --state-dir, --postgresql or --control")
        }
        if files.isEmpty && rules.edition != nil {
            throw ValidationError(
                "--edition applies to recorded streams only (the history keeps each violation's edition)"
            )
        }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("stdin (-) can be read once") }
        if output.isEmpty { throw ValidationError("--output needs a file name") }
        if let since, ReportCommand.time(since) == nil {
            throw ValidationError(
                "--since must be a duration (15m, 2h, 7d), a date (2024-11-22) or a UTC time (2024-11-22T15:00:00Z), not '\(since)'"
            )
        }
        if let until, ReportCommand.time(until) == nil {
            throw ValidationError(
                "--until must be a duration (15m, 2h, 7d), a date (2024-11-22) or a UTC time (2024-11-22T15:00:00Z), not '\(until)'"
            )
        }
        if worst < 0 || worst > 50 { throw ValidationError("--worst must be 0 to 50") }
        if timeout < 1 || timeout > 600_000 { throw ValidationError("--timeout must be 1 to 600000 ms") }
    }

    func run() throws {
        let filter = ReportFilter(app: app, since: since.flatMap(Self.time), until: until.flatMap(Self.time))
        let generated = Int64(Date().timeIntervalSince1970 * 1000)
        let report: HTMLReport
        if !files.isEmpty {
            report = try fromStreams(filter: filter, generated: generated)
        } else if let stateDir {
            let path = HistoryAccess.path(inStateDirectory: stateDir)
            report = try fromHistory(name: path, filter: filter, generated: generated) {
                try HistoryAccess.stateDirectory(stateDir)
            }
        } else if let postgresql {
            report = try fromHistory(
                name: "postgresql: " + PostgresConninfo.redacted(postgresql),
                filter: filter,
                generated: generated
            ) {
                try HistoryAccess.postgresql(postgresql, writer: false)
            }
        } else {
            // No source named: the daemon `violations` and `status` find ($MODALWATCH_CONTROL, the
            // config file's control:, else the default endpoint).
            let endpoints = DaemonLocation(configFlag: rules.config).control(control)
            report = try ReportFromDaemons(endpoints: endpoints, timeoutMs: timeout, worst: worst).report(
                filter: filter,
                generated: generated
            )
        }
        let html = report.render()
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            Terminal.error("cannot write the report to '\(output)': \((error as NSError).localizedDescription)")
            throw ExitCode(2)
        }
        let model = report.model
        let events: String
        switch report.source.kind {
        case .history: events = ""
        case .streams: events = Self.count(model.events, "event") + ", "
        case .daemons: events = report.source.daemonEvents.map { Self.count($0, "event") + " received, " } ?? ""
        }
        let line =
            "report: \(Self.count(model.violations, "violation")), \(events)\(Self.count(model.sessions, "session")) → \(output)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// `1 event`, `3 events`.
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private func fromStreams(filter: ReportFilter, generated: Int64) throws -> HTMLReport {
        let (catalog, configuration) = try rules.load()
        let model = ReportModel(rules: catalog.rules.map(ReportRule.init), filter: filter, worstSessionCount: worst)
        let collector = ReportCollector(model: model)
        let pipeline = EventPipeline(catalog: catalog, configuration: configuration.engine, output: collector)
        let decoder = EventDecoder()
        let observed = generated
        for file in files {
            guard
                let data = file == "-"
                    ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
            else {
                Terminal.error("cannot read '\(file)'; check the path and permissions")
                throw ExitCode(2)
            }
            data.withUnsafeBytes { bytes in
                var start = 0
                while start <= bytes.count {
                    let i = CheckCommand.lineEnd(in: bytes, from: start)
                    let line = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
                    start = i + 1
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    // The model sees each event before the engine judges it (the violations it
                    // triggers then find its presentation); the engine judges it as `check` does.
                    var ends: [ReportModel.SessionEnd] = []
                    decoder.decode(line) { item in
                        if case .event(let event) = item, let end = model.observe(event) { ends.append(end) }
                    }
                    pipeline.process(payload: line, observed: observed)
                    for end in ends { model.endSession(end) }
                }
            }
        }
        model.finishLiveSessions()
        var notes: [String] = []
        let rejected = pipeline.eventsRejected
        if rejected > 0 {
            let reasons = pipeline.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                separator: ", "
            )
            notes.append(
                "\(rejected) event(s) rejected and not judged (\(reasons)); `modalwatch check` names their lines."
            )
        }
        for failure in catalog.failures { notes.append("Rule module not loaded: \(failure.description)") }
        let source = ReportSource(
            kind: .streams,
            names: files.map { ($0 as NSString).lastPathComponent },
            edition: configuration.engine.defaultEdition.name,
            generated: generated,
            notes: notes
        )
        return HTMLReport(model: model, source: source)
    }

    /// The report of the history `open` opens (`name`: its file, or its database for PostgreSQL).
    private func fromHistory(
        name: String,
        filter: ReportFilter,
        generated: Int64,
        open: () throws -> any HistoryReading
    ) throws -> HTMLReport {
        let (catalog, _) = try rules.load()
        let model = ReportModel(rules: catalog.rules.map(ReportRule.init), filter: filter, worstSessionCount: worst)
        var skipped = 0
        do {
            let history = try open()
            try history.scan(app: filter.app, sinceTs: filter.since, untilTs: filter.until) { row, json in
                guard let severity = Severity(name: row.severity) else {
                    skipped += 1
                    return
                }
                let (suggestion, corrected, subjectKind) = ReportViolation.details(of: json)
                model.add(
                    ReportViolation(
                        rule: row.rule,
                        severity: severity,
                        app: row.app,
                        session: row.session,
                        ts: row.ts,
                        subject: ViolationJSON.string("subject", in: json),
                        message: ViolationJSON.string("message", in: json),
                        suggestion: suggestion,
                        corrected: corrected,
                        locale: ViolationJSON.string("locale", in: json),
                        subjectKind: subjectKind
                    )
                )
            }
        } catch let exit as ExitCode {
            throw exit  // said already (`HistoryAccess`)
        } catch {
            let hint = postgresql == nil ? "" : "; " + HistoryAccess.hint(for: error)
            Terminal.error("cannot read the history at \(name): \(error)\(hint)")
            throw ExitCode(2)
        }
        var notes: [String] = []
        if skipped > 0 { notes.append("\(skipped) stored violation(s) with an unknown severity were left out.") }
        return HTMLReport(
            model: model,
            source: ReportSource(kind: .history, names: [name], generated: generated, notes: notes)
        )
    }

    /// A time for --since / --until, ms since the epoch: a duration before now, a date, or a UTC time.
    static func time(_ text: String) -> Int64? {
        if let ms = DurationParser.milliseconds(text) { return Int64(Date().timeIntervalSince1970 * 1000) - ms }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970 * 1000) }
        }
        return nil
    }
}
