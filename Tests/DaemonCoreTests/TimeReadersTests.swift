import ControlProtocol
import Foundation
import Logging
import ModalwatchTesting
import RuleHost
import SessionEngine
import XCTest

@testable import DaemonCore

/// The readers of times that a snapshot or a journal written before the decoder's range held may
/// feed any value: the `session` reply is built, without a trap, whatever the times and `now`.
final class TimeReadersTests: XCTestCase {
    private static let extremes: [Int64] = [
        .min, .min + 1, -1, 0, 1_732_290_000_000, 253_402_300_799_999, .max - 1, .max,
    ]

    private func pipeline() -> EventPipeline {
        EventPipeline(
            catalog: BuiltinCatalog.load(),
            configuration: .init(),
            output: CollectingOutput(keepsEverything: false)
        )
    }

    func testTheSessionReplyIsBuiltWhateverTheTimesAndNow() throws {
        let pipeline = pipeline()
        let lines = [
            #"{"v":1,"type":"session.start","session":"X","ts":1732290000000,"app":"com.example.mail"}"#,
            #"{"v":1,"type":"alert.presented","session":"X","ts":1732290001000,"id":"a1","title":"Error"}"#,
            #"{"v":1,"type":"modal.presented","session":"X","ts":1732290002000,"id":"m1"}"#,
        ]
        // Arrival times as a stepped or damaged clock may give them.
        for (line, observed) in zip(lines, [Int64.min, .max, 0]) {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: observed) }
        }
        let engine = pipeline.engine
        let live = try XCTUnwrap(engine.sessionSnapshot(id: "X"))
        XCTAssertEqual(live.stack.count, 2)
        let copy = try XCTUnwrap(engine.continueJournalCopy(engine.startJournalCopy(session: "X")) { false })
        var replies = 0
        for lastTs in Self.extremes {
            for entryTs in Self.extremes {
                for lastObserved in Self.extremes {
                    var snapshot = live
                    snapshot.lastTs = lastTs
                    snapshot.startedTs = entryTs
                    snapshot.lastObserved = lastObserved
                    for i in snapshot.stack.indices { snapshot.stack[i].ts = entryTs }
                    for now in Self.extremes {
                        for alive in [true, false] {
                            let parts = SessionReplyParts(
                                snapshot: alive ? snapshot : nil,
                                journalCopy: copy,
                                capacity: 16_384,
                                recorded: 3,
                                held: 3
                            )
                            let reply = try parts.reply(SessionRequest(id: "X"), now: now)
                            XCTAssertTrue(reply.events.allSatisfy { $0.ageMs >= 0 })
                            XCTAssertTrue((reply.session.stack ?? []).allSatisfy { $0.ageMs >= 0 })
                            replies += 1
                        }
                    }
                }
            }
        }
        XCTAssertEqual(
            replies,
            Self.extremes.count * Self.extremes.count * Self.extremes.count * Self.extremes.count * 2
        )
    }

    func testAStackEntrysAgeSaturatesInsteadOfWrapping() throws {
        let pipeline = pipeline()
        for line in [
            #"{"v":1,"type":"session.start","session":"Y","ts":1000,"app":"a"}"#,
            #"{"v":1,"type":"popover.presented","session":"Y","ts":2000,"id":"p"}"#,
        ] {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { pipeline.process(payload: UnsafeRawBufferPointer($0), observed: 5_000) }
        }
        var snapshot = try XCTUnwrap(pipeline.engine.sessionSnapshot(id: "Y"))
        func reply(_ snapshot: SessionSnapshot) throws -> SessionReply {
            let copy = try XCTUnwrap(
                pipeline.engine.continueJournalCopy(pipeline.engine.startJournalCopy(session: "Y")) { false }
            )
            let parts = SessionReplyParts(snapshot: snapshot, journalCopy: copy, capacity: 16_384, recorded: 2, held: 2)
            return try parts.reply(SessionRequest(id: "Y"), now: 10_000)
        }
        // The journal knows the popover's arrival (5,000): its age is now less that, whatever lastTs.
        snapshot.lastTs = .max
        XCTAssertEqual(try reply(snapshot).session.stack?.first?.ageMs, 5_000)
        // Not in the journal: arrival age plus event time since the entry, 2^63-1 - 0, would wrap
        // to a negative age; it is held at Int64.max.
        snapshot.stack[0].ts = 0
        snapshot.lastObserved = 0
        XCTAssertEqual(try reply(snapshot).session.stack?.first?.ageMs, .max)
    }
}
