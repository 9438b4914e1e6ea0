import ModalwatchABI
import RuleKit

/// `alert-confirms-user-action`: an alert asks to confirm what the person just did.
enum AlertConfirmsUserAction: Rule {
    static let id = "alert-confirms-user-action"
    static let rev: UInt32 = 3
    static let severity = Severity.warning
    static let editions: Editions = [.edition2009, .ios7]
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.any
    static let window = Parameter<Int64>.duration(
        "window",
        defaultMs: 1_000,
        minMs: 1,
        "how soon after a user action an alert counts as confirming it"
    )
    static let parameters: [any ParameterDeclaration] = [window]
    static let summary = """
        An alert with a cancel button (style cancel, or else a default-style button titled Cancel in any case) \
        and at least one other button appears within window (inclusive) after \
        the session's latest user.action; not in current, which allows alerts to confirm destructive actions.
        """
    static let guideline = "Confirm a person's own action with an action sheet, not an alert"
    static let source = "2009: Using Alerts; ios7: Alert"

    /// The alert's button titles as an action sheet orders them: the others first, the cancel
    /// button last.
    static func sheetOrder(_ buttons: CArrayView<mw_button, Button>, locale: Text) -> [String] {
        var titles: [String] = []
        var cancels: [String] = []
        for index in buttons.indices {
            let title = buttons[index].title.string ?? ""
            if buttons.isCancelButton(index, locale: locale) { cancels.append(title) } else { titles.append(title) }
        }
        return titles + cancels
    }

    static func judge(_ call: RuleCall) {
        let window = call[Self.window]
        let event = call.event
        let buttons = event.buttons
        let cancels = buttons.cancelCount(locale: call.locale)
        guard cancels > 0, buttons.count > cancels else { return }
        guard let action = call.session.lastUserActionTs else { return }
        let delay = event.ts - action
        guard delay >= 0, delay <= window else { return }
        var evidence = Evidence()
        evidence.add("delay_ms", delay)
        evidence.add("window_ms", window)
        evidence.add("buttons", buttons.count)
        evidence.add("control", call.session.lastUserActionControl?.name)
        call.report(
            subject: event.id,
            message: """
                The alert \(quoted: event.title.isBlank ? event.message : event.title) with a cancel button \
                appeared \(duration: delay) after a user action; confirm it with an action sheet
                """,
            evidence: evidence,
            events: [EventRef(type: .userAction, ts: action)],
            suggestion: """
                Confirm with an action sheet instead: \(quotedList: Self.sheetOrder(buttons, locale: call.locale))
                """
        )
    }

    private static let confirmation = """
        {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
        {"v":1,"type":"user.action","session":"S1","ts":1732290004000,"control":"toolbar_button","label":"Trash","destructive":true}
        {"v":1,"type":"alert.presented","session":"S1","ts":1732290004300,"id":"a1","title":"Delete This Message?","message":null,"buttons":[{"title":"Cancel","style":"cancel"},{"title":"Delete","style":"destructive"}]}
        {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290006000,"id":"a1","button":1,"via":"button"}
        """

    static let examples: [Example] = [
        Example(
            "v1.1: a default-style button titled Cancel makes a confirmation",
            expected: 1,
            in: [.edition2009, .ios7],
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290001000,"control":"button","label":"Share"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001300,"id":"a1","title":"Delete this photo?","message":"It is removed from all devices.","buttons":[{"title":"Cancel"},{"title":"Delete","style":"destructive"}]}
                """
        ),
        Example("an alert confirms tapping Trash", expected: 1, in: [.edition2009, .ios7], events: confirmation),
        Example("an alert confirms tapping Trash (current allows it)", expected: 0, in: .current, events: confirmation),
        Example(
            "a one-button alert right after an action",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290004000,"control":"button","label":"Send"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290004500,"id":"a1","title":"Message Not Sent","message":"The server could not be reached.","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "a two-button alert long after the last action",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290004000,"control":"button","label":"Sync"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290034000,"id":"a1","title":"Storage Almost Full","message":"Remove some episodes?","buttons":[{"title":"Later","style":"cancel"},{"title":"Manage"}]}
                """
        ),
        Example(
            "an action sheet confirms tapping Trash",
            expected: 0,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.app","device":"phone"}
                {"v":1,"type":"user.action","session":"S1","ts":1732290004000,"control":"toolbar_button","label":"Trash"}
                {"v":1,"type":"sheet.presented","session":"S1","ts":1732290004100,"id":"sh1","buttons":[{"title":"Delete Message","style":"destructive"},{"title":"Cancel","style":"cancel"}]}
                {"v":1,"type":"sheet.dismissed","session":"S1","ts":1732290005200,"id":"sh1","button":0,"via":"button"}
                """
        ),
    ]
}
