import EventDecoding
import Foundation
import ModalwatchABI
import XCTest

/// A manual throughput check, not a timed test: it runs only when MODALWATCH_THROUGHPUT=1 and prints
/// events per second. Run it in a release build:
///
///     MODALWATCH_THROUGHPUT=1 swift test -c release --filter ThroughputCheck
final class ThroughputCheck: XCTestCase {
    /// Representative events of about 180 bytes.
    static let events = [
        #"{"v":1,"type":"alert.presented","session":"4F2C9A7E-1B3D","ts":1732290009000,"seq":42,"id":"a1","title":"Error","message":"Something went wrong","buttons":[{"title":"OK","style":"default"}]}"#,
        #"{"v":1,"type":"user.action","session":"4F2C9A7E-1B3D","ts":1732290004000,"seq":43,"app":"com.example.mail","control":"toolbar_button","label":"Trash","destructive":true}"#,
        #"{"v":1,"type":"sheet.dismissed","session":"4F2C9A7E-1B3D","ts":1732290005200,"seq":44,"app":"com.example.mail","id":"sh1","button":0,"via":"button","extra":{"k":[1,2]}}"#,
    ]

    func testThroughput() throws {
        guard ProcessInfo.processInfo.environment["MODALWATCH_THROUGHPUT"] == "1" else {
            throw XCTSkip("set MODALWATCH_THROUGHPUT=1 to run")
        }
        let decoder = EventDecoder()
        let singles = Self.events.map { Array($0.utf8) }
        let meanSize = singles.map(\.count).reduce(0, +) / singles.count

        // One event per payload.
        var decoded = 0
        let rounds = 1_000_000
        let start = ContinuousClock.now
        for i in 0..<rounds {
            singles[i % singles.count].withUnsafeBytes { bytes in
                decoder.decode(bytes) { item in
                    if case .event(let e) = item { decoded &+= Int(e.pointee.type) > 0 ? 1 : 0 }
                }
            }
        }
        let single = ContinuousClock.now - start
        XCTAssertEqual(decoded, rounds)

        // NDJSON batches of 1,000 events.
        let batch = Array((0..<1000).map { Self.events[$0 % Self.events.count] }.joined(separator: "\n").utf8)
        decoded = 0
        let batchStart = ContinuousClock.now
        for _ in 0..<1000 {
            batch.withUnsafeBytes { bytes in
                decoder.decode(bytes) { item in
                    if case .event = item { decoded &+= 1 }
                }
            }
        }
        let batched = ContinuousClock.now - batchStart
        XCTAssertEqual(decoded, 1_000_000)

        func rate(_ d: Duration) -> String {
            let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            return String(format: "%.2f M events/s (%.0f ns/event)", 1.0 / seconds, seconds * 1000)
        }
        print("EventDecoder throughput, events of \(meanSize) bytes on average:")
        print("  one event per payload: \(rate(single))")
        print("  batches of 1,000:      \(rate(batched))")
    }
}
