import Foundation
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// Recorded streams written from spec/rules.md, independently of the modules'
/// own examples: each rule fires exactly as many times as the manifest says,
/// in each edition, and in no other.
final class RecordedStreamTests: XCTestCase {
    private struct Manifest: Decodable {
        struct Stream: Decodable {
            var file: String
            var note: String
            var expect: [String: [String: Int]]
        }
        var modules: [String]
        var streams: [Stream]
    }

    func testOveruseAndModalityStreams() throws {
        try runManifest(in: BuiltinCatalog.streams)
    }

    func testAlertContentAndActionSheetStreams() throws {
        try runManifest(in: BuiltinCatalog.streams.appendingPathComponent("content"))
    }

    private func runManifest(in folder: URL) throws {
        let catalog = BuiltinCatalog.load()
        let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        let manifest = try JSONDecoder().decode(Manifest.self, from: data)
        let judged = catalog.rules.filter { manifest.modules.contains($0.module) }.map(\.id)
        XCTAssertFalse(judged.isEmpty)
        for stream in manifest.streams {
            let text = try String(contentsOf: folder.appendingPathComponent(stream.file), encoding: .utf8)
            for edition in Edition.allCases {
                let collector = CollectingOutput(keepsEverything: false)
                let pipeline = EventPipeline(
                    catalog: catalog,
                    configuration: EngineConfiguration(defaultEdition: edition),
                    output: collector
                )
                for line in text.split(separator: "\n") {
                    var line = String(line)
                    line.withUTF8 { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
                }
                XCTAssertEqual(pipeline.eventsRejected, 0, "\(stream.file) has rejected events")
                for rule in judged {
                    let expected = stream.expect[rule]?[edition.name] ?? 0
                    XCTAssertEqual(
                        collector.countsByRule[rule] ?? 0,
                        expected,
                        "\(stream.file) [\(edition.name)] \(rule): \(stream.note)"
                    )
                }
            }
        }
    }
}
