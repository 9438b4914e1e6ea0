import AlertText
import RuleKit

/// `alert-title-single-word`: a title such as `Error` that says nothing.
enum AlertTitleSingleWord: Rule {
    static let id = "alert-title-single-word"
    static let rev: UInt32 = 3
    static let severity = Severity.warning
    static let editions = Editions.all
    static let events: [EventType] = [.alertPresented]
    static let fire = Fire.oncePerSubject
    static let languages = Languages.localized
    static let summary = """
        The title, trimmed of whitespace and ending punctuation, has exactly one word (a run of letters, digits and \
        apostrophes: Error, Warning!, Can’t, 404); emoji and symbols are not words (Error ⚠️ is one word), \
        a hyphen splits (Wi-Fi is two), and a blank title has none. A title with letters of a script written \
        without spaces (Han, Kana, Thai, Lao, Khmer, Myanmar) has the words ICU's word break iterator finds with \
        its dictionaries (エラー, 错误 and แก้ไข are one word; 接続できません, 导入失败 and Zap失敗 more than one).
        """
    static let guideline = "Avoid single-word titles such as Error or Warning"
    static let source = "2009: Designing an Alert; ios7: Alert; current: Alerts (Alert Titles and Messages)"

    static func judge(_ call: RuleCall) {
        let event = call.event
        let title = call.slice(event.title).trimmingEndingPunctuation
        guard let only = title.onlyWord else { return }
        if title.letterScripts.spaceless > 0 {
            // No spaces to count: the words are the dictionary's. Where ICU fails, the title is
            // not judged.
            guard title.dictionaryWordCount(upTo: 2) == 1 else { return }
        }
        let word = only.string
        var evidence = Evidence()
        evidence.add("title", event.title)
        evidence.add("word", word)
        call.report(
            subject: event.id,
            message: "The alert title \(quoted: event.title) is a single word",
            evidence: evidence,
            suggestion: call.isEnglish
                ? "Replace the title \(quoted: event.title) with a short sentence or question that says what happened, such as “Unable to save the document”"
                : "Replace the title \(quoted: event.title) with a short sentence or question, in its language, that says what happened"
        )
    }

    static let examples: [Example] = [
        Example(
            "v1.3: Japanese titles エラー, プレイリスト and 接続できません, a Thai แก้ไข, a Chinese 导入失败",
            expected: 3,
            events: """
                {"v":1,"type":"session.start","session":"S1","ts":1732290000000,"app":"com.example.mail","locale":"ja-JP"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"エラー","message":"問題が発生しました。","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290002000,"id":"a2","title":"接続できません","message":"申し訳ありません。","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a3","title":"プレイリスト","message":"プレイリストを削除しますか？","buttons":[{"title":"キャンセル","style":"cancel"},{"title":"削除","style":"destructive"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290004000,"id":"a4","locale":"th-TH","title":"แก้ไข","message":"บันทึกการเปลี่ยนแปลงหรือไม่","buttons":[{"title":"ยกเลิก","style":"cancel"},{"title":"บันทึก"}]}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a5","locale":"zh-Hans-CN","title":"导入失败","message":"无法读取文件。","buttons":[{"title":"好"}]}
                """
        ),
        Example(
            "titles Error and Warning!",
            expected: 2,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Error","message":"Something went wrong","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290003000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290004000,"id":"a2","title":"Warning!","message":"The battery is low.","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "a curly-apostrophe word with an emoji",
            expected: 1,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":" Can’t… ⚠️ ","message":"The photo could not be saved.","buttons":[{"title":"OK"}]}
                """
        ),
        Example(
            "multiword, hyphenated, emoji-only and missing titles",
            expected: 0,
            events: """
                \(ExampleEvents.sessionStart)
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290001000,"id":"a1","title":"Unable to Connect","message":null,"buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290002000,"id":"a1","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290003000,"id":"a2","title":"Wi-Fi?","message":null,"buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290004000,"id":"a2","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290005000,"id":"a3","title":"🎉🎉","message":"All photos are backed up.","buttons":[{"title":"OK"}]}
                {"v":1,"type":"alert.dismissed","session":"S1","ts":1732290006000,"id":"a3","button":0,"via":"button"}
                {"v":1,"type":"alert.presented","session":"S1","ts":1732290007000,"id":"a4","message":"Error","buttons":[{"title":"OK"}]}
                """
        ),
    ]
}
