import RuleKit

/// `modal-frequency`: too many alerts, action sheets and modal views within a trailing window.
enum ModalFrequency: Rule {
    static let id = "modal-frequency"
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented, .sheetPresented, .modalPresented]
    static let fire = Fire.oncePerWindow
    static let limit = Parameter<Int64>.int("limit", default: 10, min: 1, max: 10_000, "alerts, sheets and modal views allowed within the window")
    static let window = Parameter<Int64>.duration("window", defaultMs: 300_000, minMs: 1_000, "the trailing window, in event time")
    static let parameters: [any ParameterDeclaration] = [limit, window]
    static let summary = """
        An alert, action sheet or modal view presentation makes the session's presentations within the \
        trailing window exceed limit (popovers do not count); the subject is that presentation; then quiet for one window.
        """
    static let guideline = "Avoid overusing alerts, action sheets and modal views"
    static let source = """
        2009: Alerts, Action Sheets, and Modal Views; ios7: Temporary Views; current: Modality
        """

    /// The per-session window of presentation times.
    private static let windowKey: UInt64 = 1
    /// Counts above this (or limit + 1) are capped in the evidence.
    private static let minimumKeep: Int64 = 32

    static func judge(_ call: RuleCall) {
        let limit = call[Self.limit]
        let window = call[Self.window]
        let event = call.event
        let keep = UInt32(clamping: max(limit + 1, minimumKeep))
        let count = Int64(call.windowPush(windowKey, ts: event.ts, windowMs: window, keep: keep))
        guard count > limit else { return }
        // Within the quiet window after firing, the host would hold the report back: skip it.
        guard call.shouldReport(subject: event.id) else { return }
        var evidence = Evidence()
        evidence.add("count", count)
        evidence.add("limit", limit)
        evidence.add("window_ms", window)
        evidence.add("kind", kindName(event.type))
        call.report(
            subject: event.id,
            message: """
                \(count: count, "alert, action sheet or modal view", plural: "alerts, action sheets and modal views") \
                within \(duration: window); the limit is \(limit)
                """,
            evidence: evidence,
            quietMs: window
        )
    }

    private static func kindName(_ type: EventType?) -> String {
        switch type {
        case .alertPresented: "alert"
        case .sheetPresented: "sheet"
        default: "modal"
        }
    }

    static let examples: [Example] = [
        Example("eleven presentations within five minutes", expected: 1, events: """
            {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290020800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290021000,"id":"sh2","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290023000,"id":"sh2","button":1,"via":"button"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290041000,"id":"m3","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290046000,"id":"m3","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290061000,"id":"a4","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290063000,"id":"a4","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290080800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290081000,"id":"sh5","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290083000,"id":"sh5","button":1,"via":"button"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290101000,"id":"m6","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290106000,"id":"m6","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290121000,"id":"a7","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290123000,"id":"a7","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290140800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290141000,"id":"sh8","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290143000,"id":"sh8","button":1,"via":"button"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290161000,"id":"m9","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290166000,"id":"m9","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290181000,"id":"a10","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290183000,"id":"a10","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290200800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290201000,"id":"sh11","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290203000,"id":"sh11","button":1,"via":"button"}
            """),
        Example("ten presentations and three popovers within five minutes", expected: 0, events: """
            {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
            {"v":1,"type":"popover.presented","session":"S1","ts":1732290001000,"id":"p1"}
            {"v":1,"type":"popover.dismissed","session":"S1","ts":1732290002000,"id":"p1"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290005000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290022800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290023000,"id":"sh2","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290025000,"id":"sh2","button":1,"via":"button"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290043000,"id":"m3","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290048000,"id":"m3","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290063000,"id":"a4","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290065000,"id":"a4","button":0,"via":"button"}
            {"v":1,"type":"popover.presented","session":"S1","ts":1732290083000,"id":"p5"}
            {"v":1,"type":"popover.dismissed","session":"S1","ts":1732290084000,"id":"p5"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290084800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290085000,"id":"sh5","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290087000,"id":"sh5","button":1,"via":"button"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290105000,"id":"m6","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290110000,"id":"m6","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290125000,"id":"a7","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290127000,"id":"a7","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290144800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290145000,"id":"sh8","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290147000,"id":"sh8","button":1,"via":"button"}
            {"v":1,"type":"popover.presented","session":"S1","ts":1732290165000,"id":"p9"}
            {"v":1,"type":"popover.dismissed","session":"S1","ts":1732290166000,"id":"p9"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290167000,"id":"m9","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290172000,"id":"m9","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290187000,"id":"a10","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290189000,"id":"a10","button":0,"via":"button"}
            """),
        Example("eleven presentations over seven minutes", expected: 0, events: """
            {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290040800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290041000,"id":"sh2","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290043000,"id":"sh2","button":1,"via":"button"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290081000,"id":"m3","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290086000,"id":"m3","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290121000,"id":"a4","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290123000,"id":"a4","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290160800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290161000,"id":"sh5","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290163000,"id":"sh5","button":1,"via":"button"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290201000,"id":"m6","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290206000,"id":"m6","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290241000,"id":"a7","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290243000,"id":"a7","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290280800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290281000,"id":"sh8","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290283000,"id":"sh8","button":1,"via":"button"}
            {"v":1,"type":"modal.presented","session":"S1","ts":1732290321000,"id":"m9","style":"page_sheet","transition":"cover_vertical","title":"New Message","buttons":[{"title":"Cancel","role":"cancel"},{"title":"Send","role":"confirm"}]}
            {"v":1,"type":"modal.dismissed","session":"S1","ts":1732290326000,"id":"m9","via":"button","button":0}
            {"v":1,"type":"alert.presented","session":"S1","ts":1732290361000,"id":"a10","title":"Sync Failed","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
            {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290363000,"id":"a10","button":0,"via":"button"}
            {"v":1,"type":"user.action","session":"S1","ts":1732290400800,"control":"toolbar_button","label":"Share"}
            {"v":1,"type":"sheet.presented","session":"S1","ts":1732290401000,"id":"sh11","buttons":[{"title":"Copy Link"},{"title":"Cancel","style":"cancel"}]}
            {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290403000,"id":"sh11","button":1,"via":"button"}
            """),
    ]
}
