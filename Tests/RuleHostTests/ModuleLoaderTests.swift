import Foundation
import InMemoryLogging
import Logging
import RuleHost
import XCTest

/// The loader reports a module that cannot load by its path and reason, logs it once, and loads the others.
final class ModuleLoaderTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "mw-rulehost-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testABrokenModuleIsReportedByPathAndReasonAndTheOthersLoad() throws {
        let junk = folder + "/libmodalwatch-rules-junk.so"
        try Data("this is not a shared library".utf8).write(to: URL(fileURLWithPath: junk))
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let logs = handler
        let catalog = ModuleLoader(logger: Logger(label: "test") { _ in logs }).load(directories: [folder])

        XCTAssertEqual(catalog.failures.count, 1, catalog.failures.map(\.description).joined(separator: "\n"))
        let failure = try XCTUnwrap(catalog.failures.first)
        XCTAssertEqual(failure.path, junk)
        guard case .notASharedLibrary = failure.reason else { return XCTFail("\(failure.reason)") }
        XCTAssertTrue(failure.description.hasPrefix(junk + ": "), failure.description)
        XCTAssertFalse(failure.description.contains("\n"), "one line")

        let errors = logs.entries.filter { $0.level == .error }
        XCTAssertEqual(
            errors.map(\.message.description),
            ["rule module not loaded"],
            "logged once, with a constant message"
        )
        XCTAssertEqual(errors.first?.metadata["path"]?.description, junk)
        XCTAssertEqual(errors.first?.metadata["error"]?.description, failure.description, "the reason as its one line")

        // The built-in modules next to the test binary load all the same, each logged with its metadata.
        let loaded = logs.entries.filter { $0.level == .info && $0.message == "loaded rule module" }
        XCTAssertEqual(loaded.count, catalog.modules.count)
        XCTAssertEqual(Set(loaded.compactMap { $0.metadata["module"]?.description }), Set(catalog.modules.map(\.name)))
        if !catalog.modules.isEmpty {
            XCTAssertTrue(catalog.modules.map(\.name).contains("overuse"), "\(catalog.modules.map(\.name))")
        }
    }

    func testAFolderThatCannotBeReadIsReported() {
        let catalog = ModuleLoader(logger: Logger(label: "test") { _ in InMemoryLogHandler() })
            .load(directories: [folder + "/missing"], includeBuiltins: false)
        XCTAssertEqual(catalog.failures.count, 1)
        XCTAssertEqual(catalog.failures.first?.path, folder + "/missing")
        XCTAssertTrue(catalog.modules.isEmpty)
    }
}
