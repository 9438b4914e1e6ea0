import Foundation
import XCTest

/// Every kept regression input of the four fuzz targets (`Fuzz/regressions/TARGET`), fed to the
/// entry the fuzz target's `LLVMFuzzerTestOneInput` calls, with the same invariants: a broken one
/// traps and fails the run, naming the invariant (`FuzzCheck`); the file is printed before it runs.
/// The targets are compiled into this test module from `Fuzz/Targets` without their libFuzzer entry
/// files, so the replay needs no sanitized build; `Fuzz/nightly.sh` fuzzes them for real.
///
/// The checks of past findings are on (`MODALWATCH_FUZZ_CONFIG_STRICT` and
/// `MODALWATCH_FUZZ_CONTROL_STRICT` are 1 unless the environment says otherwise); the rule modules
/// are the debug build's (`MODALWATCH_FUZZ_RULES_DIR` unless set), the stream `demo/stream.ndjson`.
final class FuzzRegressionReplayTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    override class func setUp() {
        super.setUp()
        setenv("MODALWATCH_FUZZ_CONFIG_STRICT", "1", 0)
        setenv("MODALWATCH_FUZZ_CONTROL_STRICT", "1", 0)
        setenv("MODALWATCH_FUZZ_STREAM", root.appendingPathComponent("demo/stream.ndjson").path, 0)
        if let products = Bundle.main.executableURL?.deletingLastPathComponent() {
            setenv("MODALWATCH_FUZZ_RULES_DIR", ruleModules(in: products).path, 0)
        }
    }

    /// A temporary folder of links to the `libmodalwatch-rules-*.so` in `products`: the build's folder
    /// also holds other libraries (a full `swift build` makes `libGRDB-dynamic.so`), which the fuzz
    /// environment would refuse as modules without an entry symbol.
    private static func ruleModules(in products: URL) -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("modalwatch-fuzz-rules-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: products.path)) ?? []
        for name in names where name.hasPrefix("libmodalwatch-rules-") && name.hasSuffix(".so") {
            try? FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name),
                withDestinationURL: products.appendingPathComponent(name)
            )
        }
        return folder
    }

    func testDecoderRegressions() throws {
        try replay("decoder") { DecoderFuzzTarget.shared.run($0) }
    }

    func testConfigRegressions() throws {
        try replay("config") { ConfigFuzzTarget.shared.run($0) }
    }

    func testControlRegressions() throws {
        try replay("control") { ControlFuzzTarget.shared.run($0) }
    }

    func testTimelineRegressions() throws {
        try replay("timeline") { TimelineFuzzTarget.shared.run($0) }
    }

    /// Feeds every file of `Fuzz/regressions/target` to `run`; fails when the folder has none.
    private func replay(_ target: String, _ run: (UnsafeRawBufferPointer) -> Void) throws {
        let folder = Self.root.appendingPathComponent("Fuzz/regressions/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertFalse(names.isEmpty, "no regression inputs in \(folder.path)")
        for name in names {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            print("fuzz regression: \(target)/\(name) (\(bytes.count) bytes)")
            bytes.withUnsafeBytes { run($0) }
        }
    }
}
