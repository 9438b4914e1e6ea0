import Foundation
import ModalwatchConfig
import ModalwatchTesting
import RuleHost
import SessionEngine

/// Fuzzes `ConfigLoader.parse` with the real rule modules' catalog. The input is the file's text
/// (invalid UTF-8 repaired, as a file that reads at all would be). `parse` must return a
/// configuration or errors, never trap, and:
///
/// - every error names the file, a line within the text, a key (only whole-file problems have
///   none) and a message (with `MODALWATCH_FUZZ_CONFIG_STRICT=1`: of one line, and a key always named);
/// - an accepted configuration holds only values in range, rule ids of the catalog and
///   parameters of those rules within their bounds; and the engine it configures runs the demo
///   stream, every rule with these values, without trapping.
final class ConfigFuzzTarget {
    /// The one instance: libFuzzer calls from one thread.
    nonisolated(unsafe) static let shared = ConfigFuzzTarget()

    static let file = "fuzz.yaml"
    /// `MODALWATCH_FUZZ_CONFIG_STRICT=1`: also require what findings 1 and 2 of docs/RELIABILITY.md
    /// break (each error one line; a key named even when the YAML key is not a plain string).
    static let strict = ProcessInfo.processInfo.environment["MODALWATCH_FUZZ_CONFIG_STRICT"] == "1"
    private let catalog: RuleCatalog
    private let loader: ConfigLoader
    private let stream: [[UInt8]]

    private init() {
        catalog = FuzzEnvironment.catalog()
        loader = ConfigLoader(catalog: catalog)
        stream = FuzzEnvironment.streamLines()
    }

    func run(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        let configuration: DaemonConfiguration
        do {
            configuration = try loader.parse(text, file: Self.file)
        } catch {
            check(error, text)
            return
        }
        check(configuration)
        judgeStream(with: configuration.engine)
    }

    private func check(_ errors: ConfigErrors, _ text: String) {
        FuzzCheck.require(!errors.errors.isEmpty, "ConfigErrors with no error")
        // YAML's line breaks: LF, CR, CR LF, and NEL, LS, PS (libyaml counts these too).
        let lines = text.reduce(into: 1) { count, c in
            if ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(c) { count += 1 }
        }
        for error in errors.errors {
            FuzzCheck.require(error.file == Self.file, "error names file '\(error.file)'")
            FuzzCheck.require(
                error.line >= 0 && error.line <= lines + 1,
                "error line \(error.line) outside 0...\(lines + 1): \(error)"
            )
            FuzzCheck.require(!error.message.isEmpty, "error without message")
            // Two known defects (docs/RELIABILITY.md, findings 1 and 2; regression tests in
            // Tests/e2e/test_fuzz_regressions.py) are checked only with MODALWATCH_FUZZ_CONFIG_STRICT=1,
            // until they are fixed: errors are not always one line (YAML syntax errors carry Yams'
            // source excerpt; values are echoed raw, and a block scalar brings its newline), and a
            // top-level key that is not a plain string (`? [a]: 1`, `"": 1`) gets an empty key.
            if Self.strict {
                FuzzCheck.require(
                    !error.description.contains("\n") && !error.description.contains("\r"),
                    "error is not one line: \(error.description)"
                )
            }
            if error.key.isEmpty {
                let unnamed = !Self.strict && error.message.hasPrefix("unknown key;")
                FuzzCheck.require(
                    error.message.hasPrefix("not valid YAML") || error.message.hasPrefix("the top level must be")
                        || error.message.hasPrefix("a YAML alias") || unnamed,
                    "error without key for a part of the file: \(error)"
                )
            } else {
                FuzzCheck.require(error.line >= 1, "error with key '\(error.key)' but no line")
            }
        }
    }

    private func check(_ c: DaemonConfiguration) {
        let engine = c.engine
        FuzzCheck.require(engine.sessionIdleTimeoutMs >= 1000, "idle timeout \(engine.sessionIdleTimeoutMs)")
        FuzzCheck.require((1...100_000_000).contains(engine.maxSessions), "max_sessions \(engine.maxSessions)")
        FuzzCheck.require(
            ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(c.logLevel),
            "log level \(c.logLevel)"
        )
        if let age = c.historyMaxAgeMs { FuzzCheck.require(age >= 1000, "history max_age \(age)") }
        if let rows = c.historyMaxRows { FuzzCheck.require(rows >= 1, "history max_rows \(rows)") }
        check(engine.rules)
        for app in engine.apps.values { check(app.rules) }
    }

    private func check(_ overrides: [String: EngineConfiguration.RuleOverride]) {
        for (id, override) in overrides {
            guard let rule = catalog.rule(id: id) else { FuzzCheck.fail("override of unknown rule \(id)") }
            for (name, value) in override.parameters {
                guard let parameter = rule.parameters.first(where: { $0.name == name }) else {
                    FuzzCheck.fail("rule \(id) has no parameter \(name)")
                }
                FuzzCheck.require(
                    value >= parameter.minimum && value <= parameter.maximum,
                    "\(id).\(name) = \(value) out of bounds"
                )
            }
        }
    }

    /// The demo stream through an engine so configured: each rule runs with the values accepted.
    private func judgeStream(with configuration: EngineConfiguration) {
        let output = CollectingOutput(keepsEverything: false)
        let pipeline = EventPipeline(catalog: catalog, configuration: configuration, output: output)
        var observed: Int64 = 1_732_290_000_000
        for line in stream {
            line.withUnsafeBytes { pipeline.process(payload: $0, observed: observed) }
            observed += 250
            FuzzCheck.require(output.problems.isEmpty, output.problems.first ?? "")
        }
        FuzzCheck.require(pipeline.statistics.eventsReceived == UInt64(stream.count), "events lost in the pipeline")
    }
}
