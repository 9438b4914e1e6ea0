import Foundation
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// Reports whose message and evidence outgrow the 248 bytes RuleKit keeps inline
/// (`Evidence`, `Message`): texts of several hundred bytes, with characters JSON
/// must escape, come out whole and exact through the real modules and engine.
final class LongReportTests: XCTestCase {
    private func line(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    private func run(_ events: [[String: Any]]) throws -> [[String: Any]] {
        let collector = CollectingOutput()
        let pipeline = EventPipeline(
            catalog: BuiltinCatalog.load(),
            configuration: EngineConfiguration(defaultEdition: .current),
            output: collector
        )
        for event in events {
            var text = try line(event)
            text.withUTF8 { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
        }
        XCTAssertEqual(pipeline.eventsRejected, 0)
        return collector.violations.map(\.object)
    }

    private func alert(_ id: String, at ts: Int, title: String, message: String?) -> [[String: Any]] {
        [
            [
                "v": 1, "type": "alert.presented", "session": "S1", "ts": ts, "id": id, "title": title,
                "message": message ?? NSNull(), "buttons": [["title": "OK"]],
            ],
            [
                "v": 1, "type": "alert.dismissed", "session": "S1", "ts": ts + 1000, "id": id, "button": 0,
                "via": "button",
            ],
        ]
    }

    func testLongEscapedTextsInEvidenceAndMessage() throws {
        let title = "Sync \"failed\" at C:\\Data\u{2028}then\ttab — " + String(repeating: "Über ", count: 60) + "end"
        let message = String(repeating: "The server “could not” be reached. ", count: 12) + "Retry"
        XCTAssertGreaterThan(title.utf8.count, 300)
        XCTAssertGreaterThan(message.utf8.count, 300)
        var events: [[String: Any]] = [
            ["v": 1, "type": "session.start", "session": "S1", "ts": 1_732_290_000_000, "app": "com.example.app"]
        ]
        for n in 0..<3 {
            events += alert("a\(n)", at: 1_732_290_010_000 + n * 10_000, title: title, message: message)
        }
        let repeated = try run(events).filter { $0["rule"] as? String == "repeated-alert" }
        XCTAssertEqual(repeated.count, 1)
        let evidence = repeated.first?["evidence"] as? [String: Any]
        XCTAssertEqual(evidence?["title"] as? String, title)
        XCTAssertEqual(evidence?["message"] as? String, message)
        XCTAssertEqual(evidence?["count"] as? Int, 3)
        XCTAssertEqual(
            repeated.first?["message"] as? String,
            "The alert “\(String(title.unicodeScalars.prefix(80)))…” has appeared 3 times in this session; the limit is 2"
        )
    }

    func testALongSingleWordTitle() throws {
        let title = "Ü" + String(repeating: "x", count: 300)
        let events: [[String: Any]] =
            [["v": 1, "type": "session.start", "session": "S1", "ts": 1_732_290_000_000, "app": "com.example.app"]]
            + alert("a1", at: 1_732_290_010_000, title: title, message: nil)
        let single = try run(events).filter { $0["rule"] as? String == "alert-title-single-word" }
        XCTAssertEqual(single.count, 1)
        let evidence = single.first?["evidence"] as? [String: Any]
        XCTAssertEqual(evidence?["title"] as? String, title)
        XCTAssertEqual(evidence?["word"] as? String, title)
        XCTAssertEqual(
            single.first?["message"] as? String,
            "The alert title “\(String(title.unicodeScalars.prefix(80)))…” is a single word"
        )
    }
}
