import RuleKit

/// `sheet-background-inconsistent`: an app's action sheets in more than one background.
enum SheetBackgroundInconsistent: Rule {
    static let id = "sheet-background-inconsistent"
    static let severity = Severity.info
    static let editions: Editions = .edition2009
    static let events: [EventType] = [.sheetPresented]
    static let fire = Fire.oncePerAppValue
    static let languages = Languages.any
    static let summary = """
        An app's sheets, across all its sessions, use more than one background: fires on the sheet that brings each \
        new value after the first (once per app and value; the key is the background name, compared byte for byte); \
        a sheet without a background (absent or blank) is not counted.
        """
    static let guideline = "Give every action sheet of the app the same background"
    static let source = "2009: Designing an Action Sheet"

    /// App counter: distinct backgrounds seen so far.
    private static let distinctKey: UInt64 = 1

    /// App counter per background: how many sheets used it (1 = this sheet is the first).
    private static func seenKey(_ background: Text) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(background.bytes)
        return hasher.value | 1 << 63
    }

    static func judge(_ call: RuleCall) {
        let event = call.event
        let background = event.background
        guard !background.isBlank else { return }
        guard call.counterAdd(seenKey(background), 1, scope: .app) == 1 else { return }
        let distinct = call.counterAdd(distinctKey, 1, scope: .app)
        guard distinct > 1 else { return }
        var evidence = Evidence()
        evidence.add("background", background)
        evidence.add("distinct", distinct)
        call.report(
            subject: event.id,
            message: """
                The action sheet \(label: event) uses the background \(quoted: background), \
                the app's \(ordinal: distinct) sheet background
                """,
            evidence: evidence,
            key: background.string ?? "",
            suggestion:
                "Give all the app's action sheets one background, rather than a new one such as \(quoted: background)"
        )
    }

    static let examples: [Example] = [
        Example(
            "blue in one session, black in the next, blue again, then gray",
            expected: 2,
            in: .edition2009,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","background":"default_blue","buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":1,"via":"button"}
                {"v":1,"type":"session.end","session":"S1","ts":1732290003000}
                {"v":1,"type":"session.start","session":"S2","ts":1732290010000,"app":"com.example.app"}
                {"v":1,"type":"user.action","session":"S2","ts":1732290011000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290011100,"id":"sh1","background":"translucent_black","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S2","ts":1732290012000,"id":"sh1","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S2","ts":1732290013000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290013100,"id":"sh2","background":"default_blue","buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S2","ts":1732290014000,"id":"sh2","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S2","ts":1732290015000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290015100,"id":"sh3","background":"opaque_gray","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
        Example(
            "blue, then black, then gray (2009 only)",
            expected: 0,
            in: [.ios7, .current],
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","background":"default_blue","buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290003100,"id":"sh2","background":"translucent_black","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290004000,"id":"sh2","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290005000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290005100,"id":"sh3","background":"opaque_gray","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
        Example(
            "one background per app, and sheets that do not say",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail"}
                {"v":1,"type":"session.start","session":"S2","ts":1732290000000,"app":"com.example.photos"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290001100,"id":"sh1","background":"translucent_black","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"user.action","session":"S2","ts":1732290001000,"control":"toolbar_button","label":"Share"}
                {"v":1,"type":"sheet.presented","session":"S2","ts":1732290001100,"id":"sh1","background":"default_blue","buttons":[{"title":"Mail"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290002000,"id":"sh1","button":1,"via":"button"}
                {"v":1,"type":"sheet.dismissed","session":"S2","ts":1732290002000,"id":"sh1","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290003000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290003100,"id":"sh2","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290004000,"id":"sh2","button":1,"via":"button"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290005000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290005100,"id":"sh3","background":"translucent_black","buttons":[{"title":"Delete","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                """
        ),
    ]
}
