import Glibc
import ModalwatchClient
import XCTest

/// The process's interface language, as `startSession` sends it by default.
final class ProcessLanguageTests: XCTestCase {
    func testPOSIXLocaleNamesBecomeBCP47Tags() {
        XCTAssertEqual(ProcessLanguage.tag(fromPOSIXLocale: "de_DE.UTF-8"), "de-DE")
        XCTAssertEqual(ProcessLanguage.tag(fromPOSIXLocale: "pt_BR"), "pt-BR")
        XCTAssertEqual(ProcessLanguage.tag(fromPOSIXLocale: "ja"), "ja")
        XCTAssertEqual(ProcessLanguage.tag(fromPOSIXLocale: "sr_RS@latin"), "sr-RS")
        XCTAssertEqual(ProcessLanguage.tag(fromPOSIXLocale: "zh-Hans_CN"), "zh-Hans-CN")
    }

    func testNoLanguageIsSentForCPOSIXOrWhatTheDaemonWouldRefuse() {
        for name in ["C", "C.UTF-8", "POSIX", "", "de--DE", "x", String(repeating: "a", count: 40)] {
            XCTAssertNil(ProcessLanguage.tag(fromPOSIXLocale: name), name)
        }
    }

    func testTheFirstOfLCAllLCMessagesAndLangIsRead() {
        let names = ["LC_ALL", "LC_MESSAGES", "LANG"]
        let saved = names.map { name in getenv(name).map { String(cString: $0) } }
        defer {
            for (name, value) in zip(names, saved) {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        names.forEach { unsetenv($0) }
        XCTAssertNil(ProcessLanguage.current)
        setenv("LANG", "fr_FR.UTF-8", 1)
        XCTAssertEqual(ProcessLanguage.current, "fr-FR")
        setenv("LC_MESSAGES", "de_AT.UTF-8", 1)
        XCTAssertEqual(ProcessLanguage.current, "de-AT")
        setenv("LC_ALL", "C.UTF-8", 1)
        XCTAssertNil(ProcessLanguage.current, "LC_ALL=C overrides the others")
    }
}
