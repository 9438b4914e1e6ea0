/// The wire format v1 lines the rules' worked examples repeat, written once: session `S1` of
/// `com.example.app`, started at ``start`` (``sessionStart``); alerts, action sheets, modal views
/// and popovers presented at a time and, unless still up, dismissed by a button some time later.
public enum ExampleEvents: Sendable {
    /// When the examples' session starts (ms since the epoch).
    public static let start: Int64 = 1_732_290_000_000

    /// The examples' `session.start` line: session `S1` of `com.example.app` at ``start``.
    public static let sessionStart =
        #"{"v":1,"type":"session.start","session":"S1","ts":\#(start),"app":"com.example.app"}"#

    /// A stream: the session's start, then `lines` (the text of an `Example`'s `events`).
    public static func stream(_ lines: [String]...) -> String {
        ([sessionStart] + lines.joined())
            .joined(separator: "\n")
    }

    /// Alert `a<n>` presented `at` ms after the start with one OK button and dismissed by it
    /// `shownMs` later (nil: still up).
    public static func alert(
        _ n: Int,
        at ms: Int64,
        title: String = "Sync Failed",
        message: String = "The server could not be reached.",
        shownMs: Int64?
    ) -> [String] {
        let presented =
            #"{"v":1,"type":"alert.presented","session":"S1","ts":\#(start + ms),"id":"a\#(n)","title":"\#(title)","message":"\#(message)","buttons":[{"title":"OK"}]}"#
        guard let shownMs else { return [presented] }
        return [
            presented,
            #"{"v":1,"type":"alert.dismissed","session":"S1","ts":\#(start + ms + shownMs),"id":"a\#(n)","button":0,"via":"button"}"#,
        ]
    }

    /// "Sync Failed" alerts `a1`, `a2`, … presented at `times` (ms after the start), each
    /// dismissed `shownMs` later but the last, still up.
    public static func alerts(at times: [Int64], shownMs: Int64) -> [String] {
        times.enumerated().flatMap { index, ms in
            alert(index + 1, at: ms, shownMs: index == times.count - 1 ? nil : shownMs)
        }
    }

    /// Presentation `n` of the alert, share sheet and compose view cycle (`n` mod 3: 1 an alert,
    /// 2 a sheet after a toolbar tap, 0 a modal view) at `ms` after the start, and its dismissal.
    public static func presentation(_ n: Int, at ms: Int64) -> [String] {
        let ts = start + ms
        switch n % 3 {
        case 1:
            return alert(n, at: ms, shownMs: 2_000)
        case 2:
            return [
                #"{"v":1,"type":"user.action","session":"S1","ts":\#(ts - 200),"control":"toolbar_button","label":"Share"}"#,
                #"{"v":1,"type":"sheet.presented","session":"S1","ts":\#(ts),"id":"sh\#(n)","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}"#,
                #"{"v":1,"type":"sheet.dismissed","session":"S1","ts":\#(ts + 2_000),"id":"sh\#(n)","button":1,"via":"button"}"#,
            ]
        default:
            return [
                #"{"v":1,"type":"modal.presented","session":"S1","ts":\#(ts),"id":"m\#(n)","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}"#,
                #"{"v":1,"type":"modal.dismissed","session":"S1","ts":\#(ts + 5_000),"id":"m\#(n)","via":"button","button":0}"#,
            ]
        }
    }

    /// Presentations `1...count` of the cycle, the first at 1 s after the start, then every `everyMs`.
    public static func presentations(_ count: Int, everyMs: Int64) -> [String] {
        presentations(at: (0..<Int64(count)).map { 1_000 + $0 * everyMs })
    }

    /// Presentations `first`, `first + 1`, … of the cycle at `times` (ms after the start).
    public static func presentations(at times: [Int64], from first: Int = 1) -> [String] {
        times.enumerated().flatMap { index, ms in presentation(first + index, at: ms) }
    }

    /// Popover `p<n>` presented at `ms` after the start and dismissed a second later.
    public static func popover(_ n: Int, at ms: Int64) -> [String] {
        [
            #"{"v":1,"type":"popover.presented","session":"S1","ts":\#(start + ms),"id":"p\#(n)"}"#,
            #"{"v":1,"type":"popover.dismissed","session":"S1","ts":\#(start + ms + 1_000),"id":"p\#(n)"}"#,
        ]
    }
}
