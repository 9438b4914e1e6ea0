import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import ModalwatchConfig
import Posix
import RuleHost
import ZeroMQ

/// `modalwatch tail`: violations as the daemon publishes them, filtered.
struct TailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Stream violations as they are published, filtered by app, rule and severity.",
        discussion: """
            Subscribes to the daemon's publish socket: by topic prefix where it can (violation/APP/ with --app), \
            then by the violation's own fields. --severity S keeps S and above (info < warning < error). With --json \
            each violation is printed exactly as published, one per line. --rule must name a rule the daemon runs \
            (asked at --control; not checked when no daemon answers there). Ctrl-C (SIGINT) or SIGTERM stops it, exit 0.
            """
    )

    @Option(
        name: .long,
        help:
            "A daemon's publish endpoint (default: $MODALWATCH_PUBLISH, else publish: of the daemon's config file, else \(DefaultEndpoints.publish)); repeat it for sharded daemons: their violations come as one stream."
    )
    var publish: [String] = []

    @Option(
        name: .long,
        help:
            "A daemon's control endpoint, asked for its rules to check --rule (default: $MODALWATCH_CONTROL, else control: of the daemon's config file, else \(DefaultEndpoints.control))."
    )
    var control: [String] = []

    @Option(
        name: .long,
        help:
            "The daemon's config file, read for its publish: and control: endpoints (default: $MODALWATCH_CONFIG, else \(ConfigLoader.defaultPath) when readable)."
    )
    var config: String?

    /// Where the daemon is looked for: flags, environment, config file (interfaces.md).
    var location: DaemonLocation { DaemonLocation(configFlag: config) }

    /// The publish endpoints: those named, else the environment's, else the config file's, else the default.
    var publishEndpoints: [String] { location.publish(publish) }

    @Option(name: .long, help: "Only this app (bundle id).")
    var app: String?

    @Option(name: .long, help: "Only this rule id.")
    var rule: String?

    @Option(name: .long, help: "Only this severity and above: info, warning or error.")
    var severity: String?

    @Option(
        name: .long,
        help:
            "Only violations in this language: a BCP 47 tag (de-DE) and the tags that extend it (de: de, de-DE, de-AT)."
    )
    var locale: String?

    @Flag(name: .long, help: "Also show diagnostics about the streams (diag/ topics); --app filters them too.")
    var diagnostics = false

    @Option(name: .long, parsing: .unconditional, help: "Exit after this many messages.")
    var count: Int?

    @Flag(name: .long, help: "Machine-readable output: each message's JSON as published, one per line.")
    var json = false

    func validate() throws {
        if let severity, Severity(name: severity) == nil {
            throw ValidationError("--severity must be info, warning or error, not '\(severity)'")
        }
        if let locale, LocaleOption.normalized(locale) == nil { throw ValidationError(LocaleOption.badTag) }
        if let count, count < 1 { throw ValidationError("--count must be a positive integer, not \(count)") }
        if let app, app.isEmpty || app.contains("/") { throw ValidationError("--app must be a bundle id (no '/')") }
        try location.validate()
    }

    /// How long the daemon is asked for its rules before `--rule` goes unchecked, ms.
    static let rulesTimeoutMs = 1000

    /// The topic prefixes to subscribe to.
    var prefixes: [String] {
        var prefixes = [app.map { "violation/\($0)/" + (rule ?? "") } ?? "violation/"]
        if diagnostics { prefixes.append(app.map { "diag/\($0)/" } ?? "diag/") }
        return prefixes
    }

    /// `--locale` normalized as violations carry it (`validate` refused a malformed one).
    var wantedLocale: String? { locale.flatMap(LocaleOption.normalized) }

    /// Whether a published message passes the filters; `locale`: `wantedLocale`, read once by the caller.
    func passes(topic: String, body: JSONValue, locale: String? = nil) -> Bool {
        if let app, body["app"]?.stringValue != app { return false }
        if topic.hasPrefix("diag/") { return diagnostics && rule == nil && severity == nil && self.locale == nil }
        if let rule, body["rule"]?.stringValue != rule { return false }
        if let wanted = locale, !LocaleOption.matches(body["locale"]?.stringValue, wanted) { return false }
        if let minimum = severity.flatMap(Severity.init(name:)) {
            guard let found = body["severity"]?.stringValue.flatMap(Severity.init(name:)), found >= minimum else {
                return false
            }
        }
        return true
    }

    func run() throws {
        var signals = BlockedSignals([SIGINT, SIGTERM, SIGHUP])
        var ruleIds: [String]?
        if rule != nil || !json {
            ruleIds =
                location.control(control).lazy.compactMap {
                    RuleIdCheck.daemonRules(ControlClient(endpoint: $0, timeoutMs: Self.rulesTimeoutMs))
                }.first
        }
        if let rule, let ruleIds { try RuleIdCheck.require(rule, known: ruleIds) }
        var columns = Columns(rule: ruleIds?.map(\.count).max() ?? Columns.minimumRule)
        var shown = 0
        do {
            let context = try ZMQContext(ioThreads: 1)
            defer { context.terminate() }
            let socket = try ZMQSocket(context, type: .sub, linger: 0)
            defer { socket.close() }
            for prefix in prefixes { try socket.subscribe(prefix) }
            for endpoint in publishEndpoints { try socket.connect(endpoint) }
            if Terminal.isTerminal(STDERR_FILENO) {
                FileHandle.standardError.write(
                    Data(
                        "modalwatch: waiting for violations from \(publishEndpoints.joined(separator: ", ")); Ctrl-C stops\n"
                            .utf8
                    )
                )
            }
            let poller = ZMQPoller()
            let index = try poller.add(socket)
            let wanted = wantedLocale
            while true {
                if !signals.take().isEmpty { return }
                do {
                    _ = try poller.poll(timeout: 200)
                } catch  where error.isInterrupted {
                    continue
                }
                guard poller.isReadable(index) else { continue }
                while let message = try socket.receiveMultipart(maxFrames: 2, dontWait: true) {
                    guard message.frames.count == 2 else { continue }
                    let topic = String(decoding: message.frames[0], as: UTF8.self)
                    guard let body = try? JSONParser.parse(message.frames[1]), body.objectValue != nil,
                        passes(topic: topic, body: body, locale: wanted)
                    else { continue }
                    if json {
                        JSONOutput.raw(message.frames[1])
                    } else {
                        var text = Terminal.visible(line(topic: topic, body: body, columns: &columns)) + "\n"
                        if !topic.hasPrefix("diag/"), let suggestion = body["suggestion"]?.stringValue {
                            text += "          suggestion: " + Terminal.visible(suggestion) + "\n"
                        }
                        FileHandle.standardOutput.write(Data(text.utf8))
                    }
                    shown += 1
                    if let count, shown >= count { return }
                }
            }
        } catch {
            Terminal.error(
                "cannot subscribe at \(publishEndpoints.joined(separator: ", ")): \(error); check the endpoint (e.g. \(DefaultEndpoints.publish))"
            )
            throw ExitCode(3)
        }
    }

    /// The widths of the text columns: at least the minimum, widened to the longest value met
    /// (the rule column to the longest rule id the daemon runs), so that the lines align.
    struct Columns {
        static let minimumRule = 28
        var rule: Int
        var app = 28
        var session = 12

        /// `text` padded to `width`, which grows to fit it.
        static func fit(_ text: String, _ width: inout Int) -> String {
            width = max(width, Terminal.visibleWidth(text))
            return Terminal.pad(text, width)
        }
    }

    private func line(topic: String, body: JSONValue, columns: inout Columns) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        let time = formatter.string(
            from: Date(timeIntervalSince1970: (body["observed"]?.doubleValue ?? RelativeTime.nowMs) / 1000)
        )
        if topic.hasPrefix("diag/") {
            let reason = body["reason"]?.stringValue ?? "?"
            let app = Columns.fit(body["app"]?.stringValue ?? "-", &columns.app)
            let session = Columns.fit(body["session"]?.stringValue ?? "-", &columns.session)
            return
                "\(time)  \(Terminal.paint(Terminal.pad("diag", 7), "2"))  \(Columns.fit(reason, &columns.rule))  \(app)  \(session)  \(body["detail"]?.stringValue ?? "")"
        }
        let severity = body["severity"]?.stringValue ?? "?"
        let subject = body["subject"]?.stringValue.map { " (\($0))" } ?? ""
        let rule = Columns.fit(body["rule"]?.stringValue ?? "?", &columns.rule)
        let app = Columns.fit(Self.text(body["app"], "?"), &columns.app)
        let session = Columns.fit(Self.text(body["session"], "?"), &columns.session)
        return
            "\(time)  \(Terminal.severity(Terminal.pad(severity, 7), severity))  \(rule)  \(app)  \(session)  \(Self.text(body["message"], ""))\(subject)"
    }

    /// A field for a line: a string as it is, any other value as JSON, `fallback` when absent.
    private static func text(_ value: JSONValue?, _ fallback: String) -> String {
        guard let value else { return fallback }
        return value.stringValue ?? value.text
    }
}
