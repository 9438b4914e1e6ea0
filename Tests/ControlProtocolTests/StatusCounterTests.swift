import ControlProtocol
import XCTest

/// The registry of the `status` reply's plain counters: each goes on the wire under its key and
/// reads back, a daemon from before an optional one may leave it out, and several daemons'
/// counters merge as each says.
final class StatusCounterTests: XCTestCase {
    func testEveryCounterGoesOnTheWireUnderItsKeyAndReadsBack() throws {
        var reply = StatusReply()
        for (index, counter) in StatusCounter.allCases.enumerated() { reply[counter] = index + 1 }
        let fields = reply.fields
        for (index, counter) in StatusCounter.allCases.enumerated() {
            XCTAssertEqual(fields[counter.rawValue], .int(index + 1), counter.rawValue)
        }
        XCTAssertEqual(try StatusReply(fields: JSONFields(fields: fields, context: "status")), reply)
    }

    func testAnAbsentCounterReadsAsZeroOnlyWhenItMayBeAbsent() throws {
        var reply = StatusReply()
        for counter in StatusCounter.allCases { reply[counter] = 3 }
        for counter in StatusCounter.allCases {
            var fields = reply.fields
            fields[counter.rawValue] = nil
            let read = Result { () throws(JSONFields.Mismatch) in
                try StatusReply(fields: JSONFields(fields: fields, context: "status"))
            }
            switch read {
            case .success(let back):
                XCTAssertTrue(counter.mayBeAbsent, "\(counter.rawValue) read without it")
                XCTAssertEqual(back[counter], 0, counter.rawValue)
            case .failure(let mismatch):
                XCTAssertFalse(counter.mayBeAbsent, "\(counter.rawValue) refused without it")
                XCTAssertTrue(mismatch.message.contains(counter.rawValue), mismatch.message)
            }
        }
    }

    func testCountersMergeAsEachSays() {
        var a = StatusCounters<Int>()
        var b = StatusCounters<Int>()
        a[.eventsReceived] = 10
        b[.eventsReceived] = 32
        a[.checkpointWalkMs] = 40
        b[.checkpointWalkMs] = 25
        b[.appsEvicted] = 2
        a.merge(b)
        XCTAssertEqual(a[.eventsReceived], 42)
        XCTAssertEqual(a[.checkpointWalkMs], 40)
        XCTAssertEqual(a[.appsEvicted], 2)
        XCTAssertEqual(StatusCounters<Int>(clamping: StatusCounters<UInt64>()), StatusCounters<Int>())
    }
}
