import EventDecoding
import ModalwatchABI
import XCTest

/// NDJSON batches: framing, resynchronization after errors, and the batch limit.
final class EventDecoderBatchTests: XCTestCase {
    private let decoder = EventDecoder()

    /// "event" or the rejection reason, per item.
    private func verdicts(_ payload: String, _ decoder: EventDecoder? = nil) -> [String] {
        (decoder ?? self.decoder).outcomes(payload).map { $0.event != nil ? "event" : $0.rejection!.reason.rawValue }
    }

    func testGoodBadGoodKeepsBothGoodEvents() throws {
        let payload = [
            event("nav.push", #""screen":"A""#), event("nav.push", #""screen":5"#), event("nav.push", #""screen":"C""#),
        ].joined(separator: "\n")
        let items = decoder.outcomes(payload)
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(items[0].event?.screen, "A")
        XCTAssertEqual(items[1].rejection?.reason, .badField)
        XCTAssertEqual(items[1].rejection?.index, 1)
        XCTAssertEqual(items[2].event?.screen, "C")
    }

    func testMalformedLinesRejectOnlyThemselves() {
        let good = event("session.end")
        let lines = [
            good, #"{"v":1,"type":"#, good, #"{"v":1,"type":"x","session":"S1","ts":1,"x":"a\qb"}"#, good,
            good + " trailing", good, #"{"v":1,"type":"x","session":"S1","ts":1,"x":[1,2"#, good, "{{{", good,
        ]
        XCTAssertEqual(
            verdicts(lines.joined(separator: "\n")),
            [
                "event", "malformed_json", "event", "malformed_json", "event", "malformed_json", "event",
                "malformed_json", "event", "malformed_json", "event",
            ]
        )
    }

    /// Lines that do not start with `{` after a bad line belong to it: one rejection, not one per line.
    func testGarbageLinesAreOneRejection() {
        let good = event("session.end")
        XCTAssertEqual(
            verdicts([good, "hello", "world", "]", good].joined(separator: "\n")),
            ["event", "malformed_json", "event"]
        )
        XCTAssertEqual(verdicts(["hello", good].joined(separator: "\n")), ["malformed_json", "event"])
        XCTAssertEqual(verdicts("[1,2]"), ["malformed_json"])
    }

    func testCRLFBlankLinesAndSurroundingWhitespace() {
        let good = event("session.end")
        let payload = "\r\n\r\n  " + good + "  \r\n\r\n\t" + good + "\r\n" + good + "\n\n   \n" + good
        XCTAssertEqual(verdicts(payload), Array(repeating: "event", count: 4))
        XCTAssertEqual(verdicts(good + "\r\n"), ["event"])
    }

    func testPrettyPrintedSingleEventAndSequence() throws {
        let pretty = """
            {
              "v": 1,
              "type": "alert.presented",
              "session": "S1",
              "ts": 1732290009000,
              "id": "a1",
              "buttons": [
                {
                  "title": "OK",
                  "style": "default"
                }
              ]
            }
            """
        let e = try XCTUnwrap(decoder.event(pretty))
        XCTAssertEqual(e.buttons?.first?.title, "OK")
        XCTAssertEqual(
            verdicts(pretty + "\n" + pretty.replacingOccurrences(of: "\n", with: "\r\n") + "\n" + event("session.end")),
            ["event", "event", "event"]
        )
    }

    /// A broken pretty-printed object is one rejection; the next event is kept.
    func testBrokenPrettyPrintedObjectIsOneRejection() {
        let broken = """
            {
              "v": 1,
              "type": "alert.presented",
              "session": "S1" "ts": 1,
              "id": "a1"
            }
            """
        XCTAssertEqual(verdicts(broken + "\n" + event("session.end")), ["malformed_json", "event"])
        // A semantic error in a pretty-printed object: framing was fine, so the decoder goes on after it.
        let bad = broken.replacingOccurrences(of: #""S1" "ts""#, with: #""S1", "ts""#).replacingOccurrences(
            of: #""id": "a1""#,
            with: #""id": 5"#
        )
        XCTAssertEqual(verdicts(bad + "\n" + bad + "\n" + event("session.end")), ["bad_field", "bad_field", "event"])
    }

    /// A truncated line does not swallow the good line after it.
    func testTruncatedLineThenGoodLine() {
        let good = event("session.end")
        XCTAssertEqual(verdicts(#"{"v":1,"# + "\n" + good), ["malformed_json", "event"])
        XCTAssertEqual(verdicts(#"{"v":1,"x":["# + "\n" + good + "\n" + good), ["malformed_json", "event", "event"])
        XCTAssertEqual(verdicts(#"{"v":1,"x":"# + "\n" + good), ["malformed_json", "event"])
    }

    func testTwoObjectsOnOneLineAreOneRejection() {
        let good = event("session.end")
        XCTAssertEqual(verdicts(good + good + "\n" + good), ["malformed_json", "event"])
        XCTAssertEqual(verdicts(good + " " + good), ["malformed_json"])
    }

    func testBatchOf1025EventsRejectsTheLast() {
        let payload = (0..<1025).map { event("nav.push", #""seq":\#($0 + 1)"#) }.joined(separator: "\n")
        let items = decoder.outcomes(payload)
        XCTAssertEqual(items.count, 1025)
        XCTAssertEqual(items.prefix(1024).compactMap(\.event).map(\.seq), (1...1024).map(Int64.init))
        XCTAssertEqual(items.last?.rejection?.reason, .tooLarge)
        XCTAssertEqual(items.last?.rejection?.index, 1024)
        XCTAssertEqual(items.last?.rejection?.session, "S1")
    }

    func testEveryEventPastTheBatchLimitIsTooLarge() {
        let small = EventDecoder(limits: EventLimits(maxBatchEvents: 2))
        let good = event("session.end")
        XCTAssertEqual(
            verdicts([good, #"{"v":"#, good, good, "{bad", "junk"].joined(separator: "\n"), small),
            ["event", "malformed_json", "too_large", "too_large", "too_large"]
        )
    }

    func testIndexesCountEveryItem() {
        let good = event("session.end")
        let items = decoder.outcomes([good, "{", good, #"{"v":2}"#].joined(separator: "\n"))
        XCTAssertEqual(items.compactMap(\.rejection).map(\.index), [1, 3])
    }

    func testDecoderIsReusableAcrossPayloads() {
        for i in 0..<100 {
            XCTAssertEqual(decoder.event(event("nav.push", #""screen":"s\#(i)\n""#))?.screen, "s\(i)\n")
            XCTAssertEqual(decoder.rejection(#"{"v":1,"#)?.reason, .malformedJSON)
        }
    }
}
