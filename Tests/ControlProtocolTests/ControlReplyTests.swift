import ControlProtocol
import XCTest

final class ControlReplyTests: XCTestCase {
    static func status() -> StatusReply {
        var reply = StatusReply()
        reply.uptimeSeconds = 12.5
        reply.started = 1_700_000_000_000
        reply.edition = "current"
        reply.modules = [
            StatusReply.Module(
                name: "overuse",
                version: "1.2.0",
                rules: 3,
                path: "/usr/lib/modalwatch/libmodalwatch-rules-overuse.so",
                abi: "1.2"
            )
        ]
        reply.moduleFailures = ["broken: no symbol mw_module_v1"]
        reply.moduleErrors = ["overuse": 1]
        reply.endpoints = [
            "events": ["tcp://127.0.0.1:7450"], "publish": ["tcp://127.0.0.1:7451"],
            "control": ["ipc:///run/mw/control"],
        ]
        reply[.eventsReceived] = 10
        reply[.eventsRejected] = 2
        reply.rejectedByReason = ["malformed_json": 1, "bad_field": 1]
        reply.eventsPerSecond = 0
        reply.violationsRateLimitedByRule = ["alert-frequency": 4]
        reply.history = nil
        reply.curve = true
        return reply
    }

    /// The status reply, byte for byte: keys in JSONSerialization's order, `/` escaped,
    /// whole doubles without ".0", null for no history.
    func testStatusReplyBytesAreGolden() {
        let text = String(decoding: ControlReply.encode(Self.status()), as: UTF8.self)
        let expected =
            #"{"app_values_refused":0,"apps_evicted":0,"apps_known":0,"bad_evidence":0,"buckets_uncovered":null,"checkpoint_age_s":null,"checkpoint_bytes":0,"checkpoint_failures":0,"checkpoint_sessions":0,"checkpoint_walk_ms":0,"checkpoints_written":0,"config_reloads":0,"config_reloads_refused":0,"connections_refused_by_socket":{},"control_hold_cpu_max_us":0,"control_hold_cpu_us_by_request":{},"control_hold_max_request":null,"control_hold_max_us":0,"control_hold_us_by_request":{},"control_requests":0,"counts_age_s":0,"curve":true,"#
            + #""curve_clients_accepted":0,"curve_clients_refused":0,"descriptor_limit":0,"diagnostics_published":0,"diagnostics_suppressed":0,"duplicates":0,"#
            + #""edition":"current","#
            + #""endpoints":{"control":["ipc:\/\/\/run\/mw\/control"],"events":["tcp:\/\/127.0.0.1:7450"],"publish":["tcp:\/\/127.0.0.1:7451"]},"#
            + #""events_accepted":0,"events_judged":0,"events_lost":0,"events_missing_before_first":0,"events_per_second":0,"events_received":10,"events_rejected":2,"#
            + #""events_unknown_type":0,"handover_dropped":0,"history":null,"history_error":null,"history_failures":0,"#
            + #""history_healthy":false,"history_outages":0,"history_pruned":0,"history_state":"none","history_wal_bytes":0,"#
            + #""ingest_accept_failures":0,"ingest_connections":0,"ingest_connections_max":0,"ingest_connections_refused":0,"#
            + #""languages_skipped":{},"#
            + #""messages_dropped":0,"messages_received":0,"#
            + #""module_errors":{"overuse":1},"module_failures":["broken: no symbol mw_module_v1"],"module_files_changed":[],"#
            + #""modules":[{"abi":"1.2","name":"overuse","path":"\/usr\/lib\/modalwatch\/libmodalwatch-rules-overuse.so","rules":3,"version":"1.2.0"}],"#
            + #""ok":true,"out_of_order":0,"protocol":1,"rejected_by_reason":{"bad_field":1,"malformed_json":1},"reports_suppressed":0,"#
            + #""rules_quarantined":[],"#
            + #""sessions_ended":0,"sessions_evicted":0,"sessions_expired":0,"sessions_live":0,"sessions_started":0,"shard":null,"shard_buckets":256,"shard_conflicts":[],"#
            + #""spool_file_bytes":0,"spool_memory_bytes":0,"spool_records_damaged":0,"started":1700000000000,"#
            + #""subscriber_overflows":0,"subscriptions_refused":0,"topics_too_large":0,"unknown_dismissals":0,"uptime_s":12.5,"v":1,"version":"0.2.0","#
            + #""violations_already_stored":0,"violations_found":0,"#
            + #""violations_published":0,"violations_rate_limited":0,"violations_rate_limited_by_app":{},"#
            + #""violations_rate_limited_by_rule":{"alert-frequency":4},"#
            + #""violations_recovered":0,"violations_spooled":0,"violations_stored":0,"violations_unstored":0}"#
        XCTAssertEqual(text, expected)
    }

    func testStatusCarriesTheShard() throws {
        var sharded = Self.status()
        sharded.shard = StatusReply.Shard(index: 1, count: 3, key: "app")
        sharded.shardBuckets = 85
        let text = String(decoding: ControlReply.encode(sharded), as: UTF8.self)
        XCTAssertTrue(text.contains(#""shard":{"count":3,"index":1,"key":"app"},"shard_buckets":85"#), text)
        let back = try ControlReply.decode(ControlReply.encode(sharded), as: StatusReply.self)
        XCTAssertEqual(back.shard, sharded.shard)
        XCTAssertEqual(back.shardBuckets, 85)
    }

    func testStatusCarriesTheVersions() throws {
        let reply = try ControlReply.decode(ControlReply.encode(StatusReply()), as: StatusReply.self)
        XCTAssertEqual(reply.version, ModalwatchVersion.string)
        XCTAssertEqual(reply.protocolVersion, ModalwatchVersion.controlProtocol)
    }

    func testEveryReplyReadsBackAsItWasWritten() throws {
        XCTAssertEqual(try ControlReply.decode(ControlReply.encode(Self.status()), as: StatusReply.self), Self.status())

        var live = SessionInfo(
            id: "s1",
            app: "com.example",
            device: "iPhone",
            edition: "current",
            startedTs: 1000,
            lastTs: 5000,
            lastObserved: 1_700_000_000_000,
            events: 12,
            alerts: 3,
            presentations: 4,
            modalDepth: 1,
            maxDepth: 2,
            violations: 1,
            foreground: true,
            tasksRunning: 0,
            stackDepth: 1
        )
        live.alertsWindow = 2
        live.windowMs = 600_000
        let sessions = SessionsReply(total: 7, now: 1_700_000_000_500, sessions: [live])
        XCTAssertEqual(try ControlReply.decode(ControlReply.encode(sessions), as: SessionsReply.self), sessions)
        let paged = SessionsReply(
            total: 7,
            now: 1_700_000_000_500,
            sessions: [live],
            next: "recent:0:0:1700000000000:s1"
        )
        XCTAssertEqual(try ControlReply.decode(ControlReply.encode(paged), as: SessionsReply.self), paged)
        // An older daemon's reply has no `next`: the last page.
        let old = #"{"ok":true,"v":1,"total":0,"now":5,"sessions":[]}"#
        XCTAssertNil(try ControlReply.decode(Array(old.utf8), as: SessionsReply.self).next)

        var shown = live
        shown.alertsWindow = nil
        shown.windowMs = nil
        shown.live = true
        shown.stack = [
            SessionInfo.StackEntry(
                depth: 0,
                kind: "alert",
                id: "a1",
                ts: 4000,
                navDepth: 0,
                ageMs: 30,
                title: "Delete?",
                truncated: true
            )
        ]
        let records = [
            JournalRecord(
                type: "alert.presented",
                ts: 4000,
                observed: 1_700_000_000_000,
                ageMs: 500,
                modalDepth: 1,
                stackDepth: 1,
                seq: 3,
                id: "a1",
                title: "Delete?",
                newViolations: 1
            ),
            JournalRecord(
                type: "user.action",
                ts: 4500,
                observed: 1_700_000_000_100,
                ageMs: 400,
                modalDepth: 1,
                stackDepth: 1,
                label: "OK",
                truncated: true,
                control: "button"
            ),
        ]
        let session = SessionReply(
            session: shown,
            now: 1_700_000_000_500,
            timeline: [records[0]],
            events: records,
            journal: SessionReply.Journal(capacity: 16_384, recorded: 40, held: 40, events: 2, complete: true),
            violations: [.object(["rule": .string("alert-frequency"), "observed": .integer(1)])]
        )
        XCTAssertEqual(try ControlReply.decode(ControlReply.encode(session), as: SessionReply.self), session)

        let ended = SessionInfo(
            id: "s2",
            app: nil,
            startedTs: nil,
            lastTs: nil,
            lastObserved: nil,
            events: 0,
            alerts: 0,
            violations: 0
        )
        let noHistory = SessionReply(
            session: ended,
            now: 1,
            timeline: [],
            events: [],
            journal: SessionReply.Journal(capacity: 1, recorded: 0, held: 0, events: 0, complete: false),
            violations: nil,
            violationsError: "this daemon keeps no history"
        )
        XCTAssertEqual(try ControlReply.decode(ControlReply.encode(noHistory), as: SessionReply.self), noHistory)
        XCTAssertTrue(String(decoding: ControlReply.encode(noHistory), as: UTF8.self).contains(#""app":null"#))

        let rules = RulesReply(
            edition: "current",
            rules: [
                RuleInfo(
                    id: "alert-frequency",
                    rev: 2,
                    module: "overuse",
                    severity: "warning",
                    editions: ["2009", "current"],
                    active: true,
                    fire: "per_window",
                    summary: "s",
                    guideline: "g",
                    source: "src",
                    parameters: [
                        RuleInfo.Parameter(
                            name: "max",
                            kind: "count",
                            defaultValue: 3,
                            value: 5,
                            display: "5",
                            meaning: "m"
                        )
                    ],
                    examples: 4
                )
            ]
        )
        XCTAssertEqual(try ControlReply.decode(ControlReply.encode(rules), as: RulesReply.self), rules)

        let reload = ReloadReply(summary: "2 apps, 14 rules")
        XCTAssertEqual(try ControlReply.decode(ControlReply.encode(reload), as: ReloadReply.self), reload)

        let violations = ViolationsReply(violations: [.object(["id": .string("v1")])])
        XCTAssertEqual(try ControlReply.decode(ControlReply.encode(violations), as: ViolationsReply.self), violations)
    }

    func testARefusalAndAMalformedReplyAreTold() {
        XCTAssertThrowsError(
            try ControlReply.decode(Array(#"{"ok":false,"v":1,"error":"no"}"#.utf8), as: StatusReply.self)
        ) {
            XCTAssertEqual($0 as? ControlReply.Failure, .refused("no"))
        }
        XCTAssertThrowsError(try ControlReply.decode(Array(#"{"ok":true,"v":1}"#.utf8), as: ReloadReply.self)) {
            guard case .malformed(let text)? = $0 as? ControlReply.Failure else { return XCTFail("\($0)") }
            XCTAssertTrue(text.contains("\"reloaded\""), text)
        }
        XCTAssertThrowsError(try ControlReply.decode(Array("[]".utf8), as: ReloadReply.self))
    }
}
