import ControlProtocol
import XCTest

final class ControlRequestTests: XCTestCase {
    private func refusal(_ text: String) -> String? {
        do {
            _ = try ControlRequest(parsing: Array(text.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    func testEveryRequestReadsBackAsItWasWritten() throws {
        let requests: [ControlRequest] = [
            .status(StatusRequest()),
            .sessions(SessionsRequest()),
            .sessions(SessionsRequest(app: "com.example/app", sort: .alerts, limit: 0)),
            .sessions(SessionsRequest(sort: .events, limit: 1_000_000, cursor: "events:4:0:17:s:9")),
            .session(SessionRequest(id: "s-1")),
            .session(SessionRequest(id: "é s", events: 16_384, violations: 0, ended: true)),
            .rules(RulesRequest()),
            .reload(ReloadRequest()),
            .violations(ViolationsRequest()),
            .violations(
                ViolationsRequest(
                    app: "a",
                    rule: "alert-frequency",
                    session: "s",
                    since: .duration("15m"),
                    limit: 10_000
                )
            ),
            .violations(ViolationsRequest(since: .wallClock(1_700_000_000_000))),
        ]
        for request in requests {
            XCTAssertEqual(try ControlRequest(parsing: request.encoded()), request)
        }
    }

    func testRequestsCarryTheProtocolVersionAndSortedKeys() {
        XCTAssertEqual(String(decoding: StatusRequest().encoded(), as: UTF8.self), #"{"cmd":"status","v":1}"#)
        XCTAssertEqual(
            String(decoding: SessionsRequest(app: "x").encoded(), as: UTF8.self),
            #"{"app":"x","cmd":"sessions","limit":50,"sort":"recent","v":1}"#
        )
    }

    func testDefaultsAndIgnoredFields() throws {
        XCTAssertEqual(
            try ControlRequest(parsing: Array(#"{"cmd":"sessions","app":null,"future":[1]}"#.utf8)),
            .sessions(SessionsRequest(app: nil, sort: .recent, limit: 50))
        )
        XCTAssertEqual(
            try ControlRequest(parsing: Array(#"{"cmd":"session","id":"x"}"#.utf8)),
            .session(SessionRequest(id: "x", events: 20, violations: 50, ended: false))
        )
        XCTAssertEqual(
            try ControlRequest(parsing: Array(#"{"cmd":"violations"}"#.utf8)),
            .violations(ViolationsRequest(limit: 100))
        )
        XCTAssertEqual(try ControlRequest(parsing: Array(#"{"v":1,"cmd":"status"}"#.utf8)), .status(StatusRequest()))
    }

    /// The sentences docs/control-protocol.md promises: what was wrong and what to send instead.
    func testMalformedRequestsGetTheirSentence() {
        let commands = "status, sessions, session, rules, reload, violations"
        let cases: [(String, String)] = [
            ("status please", #"the request is not valid JSON; send an object such as {"cmd": "status"}"#),
            ("", #"the request is not valid JSON; send an object such as {"cmd": "status"}"#),
            (#"["status"]"#, #"the request must be a JSON object such as {"cmd": "status"}"#),
            (#""status""#, #"the request is not valid JSON; send an object such as {"cmd": "status"}"#),
            (#"{"v":1}"#, #"missing "cmd"; commands: \#(commands)"#),
            (#"{"cmd":5}"#, #"missing "cmd"; commands: \#(commands)"#),
            (#"{"cmd":"frobnicate"}"#, "unknown command 'frobnicate'; commands: \(commands)"),
            (#"{"v":2,"cmd":"status"}"#, "unsupported protocol version 2; this daemon speaks v1"),
            (#"{"v":1.0,"cmd":"status"}"#, "unsupported protocol version 1; this daemon speaks v1"),
            (#"{"cmd":"session"}"#, #""session" needs "id": the session id"#),
            (#"{"cmd":"session","id":7}"#, "id must be a string"),
            (#"{"cmd":"session","id":"x","ended":1}"#, "ended must be true or false"),
            (#"{"cmd":"session","id":"x","events":16385}"#, "events must be 0 to 16384"),
            (
                #"{"cmd":"sessions","sort":"sideways"}"#,
                "unknown sort 'sideways'; use alerts, depth, violations, events or recent"
            ),
            (#"{"cmd":"sessions","limit":-1}"#, "limit must be 0 or more"),
            (#"{"cmd":"sessions","limit":1.0}"#, "limit must be a whole number"),
            (#"{"cmd":"sessions","limit":true}"#, "limit must be a whole number"),
            (#"{"cmd":"sessions","limit":"5"}"#, "limit must be a whole number"),
            (#"{"cmd":"sessions","limit":18446744073709551615}"#, "limit must be 0 to 1000000"),
            (#"{"cmd":"violations","limit":10001}"#, "limit must be 0 to 10000"),
            (
                #"{"cmd":"violations","since":1.5}"#,
                #"since must be a duration such as "15m" or "2h", or a wall-clock time in ms"#
            ),
            (
                #"{"cmd":"violations","since":true}"#,
                #"since must be a duration such as "15m" or "2h", or a wall-clock time in ms"#
            ),
        ]
        for (request, sentence) in cases {
            XCTAssertEqual(refusal(request), sentence, request)
        }
    }

    func testTheRefusalReplyIsByteExact() {
        XCTAssertEqual(
            String(decoding: ControlReply.refusal(ControlRefusal("limit must be 0 or more")), as: UTF8.self),
            #"{"error":"limit must be 0 or more","ok":false,"v":1}"#
        )
    }
}
