import ControlProtocol
import XCTest

@testable import modalwatch

/// What `modalwatch session ID` prints, from a typed `session` reply.
final class SessionReportTests: XCTestCase {
    private func reply(violations: [JSONValue]?) -> SessionReply {
        var session = SessionInfo(
            id: "mail-7f3a",
            app: "com.example.mail",
            device: "phone",
            edition: "current",
            startedTs: 1_000_000,
            lastTs: 1_060_000,
            lastObserved: 1_700_000_000_000,
            events: 12,
            alerts: 2,
            presentations: 3,
            modalDepth: 1,
            maxDepth: 2,
            violations: 1,
            foreground: true,
            tasksRunning: 0,
            stackDepth: 1
        )
        session.live = true
        session.stack = [
            SessionInfo.StackEntry(
                depth: 0,
                kind: "alert",
                id: "a1",
                ts: 1_050_000,
                navDepth: 0,
                ageMs: 12_000,
                title: "Delete everything",
                truncated: true
            )
        ]
        let presented = JournalRecord(
            type: "alert.presented",
            ts: 1_050_000,
            observed: 1_699_999_990_000,
            ageMs: 10_000,
            modalDepth: 1,
            stackDepth: 1,
            seq: 7,
            id: "a1",
            title: "Delete everything",
            newViolations: 1
        )
        let action = JournalRecord(
            type: "user.action",
            ts: 1_060_000,
            observed: 1_700_000_000_000,
            ageMs: 0,
            modalDepth: 1,
            stackDepth: 1,
            label: "Trash",
            control: "toolbar_button",
            newViolations: 0
        )
        return SessionReply(
            session: session,
            now: 1_700_000_000_000,
            timeline: [presented],
            events: [presented, action],
            journal: SessionReply.Journal(capacity: 16_384, recorded: 40, held: 40, events: 2, complete: true),
            violations: violations,
            violationsError: violations == nil ? "this daemon keeps no history" : nil
        )
    }

    func testTheReportShowsTheStackTimelineEventsAndViolations() {
        let violation: JSONValue = .object([
            "rule": .string("alert-title-single-word"), "severity": .string("warning"), "subject": .string("a1"),
            "message": .string("one-word title"), "observed": .integer(1_699_999_995_000),
        ])
        let text = SessionReport(reply: reply(violations: [violation])).lines().joined(separator: "\n")
        XCTAssertTrue(text.contains("Session mail-7f3a   com.example.mail   phone   edition current"), text)
        XCTAssertTrue(
            text.contains("events 12   alerts 2   presentations 3   modal depth 1 (max 2)   violations 1"),
            text
        )
        XCTAssertTrue(text.contains("1 min of event time since it started"), text)
        XCTAssertTrue(text.contains("Presentation stack (1 presented, modal depth 1; bottom first)"), text)
        XCTAssertTrue(
            text.contains(
                "alert a1  \u{201C}Delete everything\u{2026}\u{201D}  presented 12 s ago, 10 s before the latest event"
            ),
            text
        )
        XCTAssertTrue(text.contains("Alert timeline (1 alert events"), text)
        XCTAssertTrue(text.contains("Recent events (last 2 of 2 in the journal)"), text)
        XCTAssertTrue(text.contains("\u{201C}Trash\u{201D} toolbar_button"), text)
        XCTAssertTrue(text.contains("Violations (1, newest first)"), text)
        XCTAssertTrue(text.contains("alert-title-single-word"), text)
        XCTAssertTrue(text.contains("every event of this session is still there"), text)
    }

    func testWithoutHistoryTheReportSaysWhy() {
        let text = SessionReport(reply: reply(violations: nil)).lines().joined(separator: "\n")
        XCTAssertTrue(text.contains("(this daemon keeps no history)"), text)
    }

    func testTimesForPeople() {
        XCTAssertEqual(RelativeTime.ago(ms: 500), "now")
        XCTAssertEqual(RelativeTime.ago(ms: 12_000), "12 s ago")
        XCTAssertEqual(RelativeTime.duration(ms: 184_000), "3 min 4 s")
        XCTAssertEqual(RelativeTime.duration(ms: 7_500_000), "2 h 5 min")
        XCTAssertEqual(RelativeTime.offset(ms: -1500), "-1.5 s")
    }

    /// Times from a daemon or a history that may hold anything: each prints, none traps.
    func testTimesForPeopleTakeAnyValue() {
        let values: [Double] = [
            -.infinity, -Double(Int64.max), -1, 0, .nan, 999, Double(Int64.max), 1e300, .infinity,
            Double(Int64.max) - Double(Int64.min),
        ]
        for ms in values {
            XCTAssertFalse(RelativeTime.ago(ms: ms).isEmpty)
            XCTAssertFalse(RelativeTime.duration(ms: ms).isEmpty)
            XCTAssertFalse(RelativeTime.offset(ms: ms).isEmpty)
        }
        XCTAssertEqual(RelativeTime.ago(ms: .nan), "now")
        XCTAssertEqual(RelativeTime.duration(ms: -5), "0 ms")
        XCTAssertEqual(RelativeTime.ago(ms: 1e300), "\(RelativeTime.maxSeconds / 86_400) d ago")
        XCTAssertEqual(RelativeTime.seconds(Double(Int64.max)), RelativeTime.maxSeconds)
    }
}
