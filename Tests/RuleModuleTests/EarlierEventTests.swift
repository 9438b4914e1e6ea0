import Foundation
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

/// A rule that names one earlier triggering event (`RuleCall.report(..., event:)`, no array)
/// publishes it before the current event in the violation's `events`.
final class EarlierEventTests: XCTestCase {
    private func run(_ events: [[String: Any]]) throws -> [[String: Any]] {
        let collector = CollectingOutput()
        let pipeline = EventPipeline(
            catalog: BuiltinCatalog.load(),
            configuration: EngineConfiguration(defaultEdition: .current),
            output: collector
        )
        for event in events {
            var text = String(decoding: try JSONSerialization.data(withJSONObject: event), as: UTF8.self)
            text.withUTF8 { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 0) }
        }
        XCTAssertEqual(pipeline.eventsRejected, 0)
        return collector.violations.map(\.object)
    }

    private func events(of violation: [String: Any]?) -> [String] {
        ((violation?["events"] as? [[String: Any]]) ?? []).map { "\($0["type"] ?? "")@\($0["ts"] ?? "")" }
    }

    func testTheEarlierEventComesBeforeTheCurrentOne() throws {
        let t0 = 1_732_290_000_000
        let found = try run([
            ["v": 1, "type": "session.start", "session": "S1", "ts": t0, "app": "com.example.app"],
            ["v": 1, "type": "user.action", "session": "S1", "ts": t0 + 1000, "control": "cell", "label": "Inbox"],
            [
                "v": 1, "type": "sheet.presented", "session": "S1", "ts": t0 + 5000, "id": "sh1",
                "buttons": [["title": "Rate Now"], ["title": "Cancel", "style": "cancel"]],
            ],
            [
                "v": 1, "type": "sheet.dismissed", "session": "S1", "ts": t0 + 6000, "id": "sh1", "button": 1,
                "via": "button",
            ],
            ["v": 1, "type": "popover.presented", "session": "S1", "ts": t0 + 7000, "id": "p1"],
            ["v": 1, "type": "modal.presented", "session": "S1", "ts": t0 + 8000, "id": "m1", "title": "New Message"],
        ])
        let sheet = found.first { $0["rule"] as? String == "sheet-without-user-action" }
        XCTAssertEqual(events(of: sheet), ["user.action@\(t0 + 1000)", "sheet.presented@\(t0 + 5000)"])
        let modal = found.first { $0["rule"] as? String == "modal-over-popover" }
        XCTAssertEqual(events(of: modal), ["popover.presented@\(t0 + 7000)", "modal.presented@\(t0 + 8000)"])
    }
}
