import EventDecoding
import Foundation
import XCTest

/// The decoder reuses one `mw_event` and clears only what the last event's type set: every
/// event, after any other (accepted, or rejected part-way through its fields), must decode
/// exactly as it does on a fresh decoder.
final class EventDecoderReuseTests: XCTestCase {
    /// One event of each type with every field its type has, and events rejected at different
    /// points of filling (after their type's first fields were written).
    private let lines: [String] = [
        event(
            "session.start",
            #""seq":3,"app":"com.example.a","app_version":"1.0","os":"iOS 18","device":"pad","size_class":"regular""#
        ),
        event("session.end"),
        event("app.background", #""app":"com.example.b""#),
        event("app.foreground"),
        event("user.action", #""control":"button","label":"Delete","destructive":true"#),
        event("task.progress", #""task":"t1","state":"failed""#),
        event(
            "alert.presented",
            #""id":"a1","title":"T","message":"M","buttons":[{"title":"OK","style":"cancel","preferred":true},{"title":"Go"}],"text_fields":[{"secure":true},{}]"#
        ),
        event("alert.dismissed", #""id":"a1","button":1,"via":"button""#),
        event(
            "sheet.presented",
            #""id":"s1","title":"T","message":"M","buttons":[{"title":"Share","style":"destructive"}],"in_popover":true,"from_popover":false,"background":"dim""#
        ),
        event("sheet.dismissed", #""id":"s1","button":0,"via":"programmatic""#),
        event(
            "modal.presented",
            #""id":"m1","style":"page_sheet","transition":"cover_vertical","title":"Edit","buttons":[{"title":"Done","role":"confirm"}],"size_class":"compact""#
        ),
        event("modal.dismissed", #""id":"m1","via":"gesture","button":null,"unsaved_changes":true,"confirmed":false"#),
        event("popover.presented", #""id":"p1""#),
        event("popover.dismissed", #""id":"p1""#),
        event("nav.push", #""screen":"Settings""#),
        event("nav.pop", #""screen":"Home""#),
        event("something.new", #""id":"x""#),
        // rejected after some of their type's fields were set
        event("alert.presented", #""id":"a2","title":"T","buttons":[{"title":"OK","style":"nope"}]"#),
        event("modal.presented", #""id":"m2","style":"page_sheet","transition":"sideways""#),
        event("sheet.presented", #""id":"s2","title":"T","in_popover":"yes""#),
        event("session.start", #""app":"com.example.a","device":"watch""#),
    ]

    private func describe(_ outcome: Outcome) -> String {
        switch outcome {
        case .event(let e): return "event \(e)"
        case .rejected(let r): return "rejected \(r)"
        }
    }

    private func withoutPlace(_ description: String) -> String {
        description.replacingOccurrences(of: #" \(event \d+, byte \d+\)"#, with: "", options: .regularExpression)
    }

    func testEveryEventAfterEveryOtherDecodesAsOnAFreshDecoder() {
        let fresh = lines.map { line in EventDecoder().outcomes(line).map(describe) }
        for (i, first) in lines.enumerated() {
            for (j, second) in lines.enumerated() {
                // One decoder, two payloads (the event is reused across payloads too) ...
                let decoder = EventDecoder()
                _ = decoder.outcomes(first)
                XCTAssertEqual(decoder.outcomes(second).map(describe), fresh[j], "\(j) after \(i), two payloads")
                // ... and both in one payload.
                // (A rejection there names the event's index and offset in the payload: left out.)
                let both = EventDecoder().outcomes(first + "\n" + second).map(describe).map(withoutPlace)
                XCTAssertEqual(Array(both.dropFirst()), fresh[j].map(withoutPlace), "\(j) after \(i), one payload")
            }
        }
    }

    func testTheRejectedLinesAreRejectedAndTheOthersAccepted() {
        for (i, line) in lines.enumerated() {
            let outcome = EventDecoder().outcomes(line)
            XCTAssertEqual(outcome.count, 1)
            XCTAssertEqual(outcome.first?.rejection != nil, i >= 17, line)
        }
    }
}
