import Foundation
import Logging
import RuleHost

/// What the config and control targets load once, before the first input: the rule modules and the
/// event stream they replay. `Fuzz/run.sh` sets both variables; a target without them stops at once
/// rather than fuzz against nothing.
///
/// - `MODALWATCH_FUZZ_RULES_DIR`: a folder of `libmodalwatch-rules-*.so` (`Fuzz/build.sh` copies the
///   instrumented ones to `Fuzz/build/rules`).
/// - `MODALWATCH_FUZZ_STREAM`: an NDJSON stream (`demo/stream.ndjson`).
enum FuzzEnvironment {
    /// The rule modules of `MODALWATCH_FUZZ_RULES_DIR`, with every module loaded.
    static func catalog() -> RuleCatalog {
        let directory = required("MODALWATCH_FUZZ_RULES_DIR")
        let logger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
        let catalog = ModuleLoader(logger: logger).load(directories: [directory], includeBuiltins: false)
        guard !catalog.modules.isEmpty, catalog.failures.isEmpty else {
            fail("no usable rule modules in \(directory): \(catalog.failures.map(\.description))")
        }
        return catalog
    }

    /// The lines of the stream of `MODALWATCH_FUZZ_STREAM`, each an event payload.
    static func streamLines() -> [[UInt8]] {
        let path = required("MODALWATCH_FUZZ_STREAM")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
        return text.split(separator: "\n").map { Array($0.utf8) }
    }

    private static func required(_ name: String) -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            fail("\(name) is not set; run the target through Fuzz/run.sh")
        }
        return value
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("fuzz: \(message)\n".utf8))
        exit(2)
    }
}
