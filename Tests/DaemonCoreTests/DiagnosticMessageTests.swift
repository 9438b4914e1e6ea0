import Foundation
import SessionEngine
import XCTest

@testable import DaemonCore

/// The one writer of diagnostics: topic `diag/APP/REASON`, the object of violations.md, escaped.
final class DiagnosticMessageTests: XCTestCase {
    private func written(
        _ reason: DiagnosticReason,
        app: String?,
        session: String?,
        detail: String
    ) -> (String, [String: Any]) {
        var message = DiagnosticMessage()
        message.write(
            .malformedJSON,
            app: "first",
            session: "S0",
            detail: "an earlier message, longer than the next",
            observed: 1
        )
        message.write(reason, app: app, session: session, detail: detail, observed: 1_732_290_000_123)
        return message.withBytes { topic, payload in
            (
                String(decoding: topic, as: UTF8.self),
                (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] ?? [:]
            )
        }
    }

    func testAStreamDiagnosticNamesItsAppAndSession() {
        let (topic, object) = written(.badField, app: "com.example.mail", session: "S\"1", detail: "ts: not a number\t")
        XCTAssertEqual(topic, "diag/com.example.mail/bad_field")
        XCTAssertEqual(object["v"] as? Int, 1)
        XCTAssertEqual(object["reason"] as? String, "bad_field")
        XCTAssertEqual(object["app"] as? String, "com.example.mail")
        XCTAssertEqual(object["session"] as? String, "S\"1")
        XCTAssertEqual(object["detail"] as? String, "ts: not a number\t")
        XCTAssertEqual((object["observed"] as? NSNumber)?.int64Value, 1_732_290_000_123)
    }

    func testTheHistoryNoticeHasNoAppNorSession() {
        let (topic, object) = written(
            .historyUnavailable,
            app: nil,
            session: nil,
            detail: "3 violations were not stored"
        )
        XCTAssertEqual(topic, "diag/-/history_unavailable")
        XCTAssertEqual(object["reason"] as? String, "history_unavailable")
        XCTAssertTrue(object["app"] is NSNull)
        XCTAssertTrue(object["session"] is NSNull)
        XCTAssertEqual(object.count, 6)
    }
}
