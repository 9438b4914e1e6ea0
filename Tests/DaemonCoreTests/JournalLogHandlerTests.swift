import DaemonCore
import Glibc
import Logging
import Posix
import XCTest

/// The journald line format: `<N>` priority, the message, logfmt fields.
final class JournalLogHandlerTests: XCTestCase {
    func testEachLevelHasItsSdDaemonPriority() {
        XCTAssertEqual(JournalLogHandler.priority(.critical), 2)
        XCTAssertEqual(JournalLogHandler.priority(.error), 3)
        XCTAssertEqual(JournalLogHandler.priority(.warning), 4)
        XCTAssertEqual(JournalLogHandler.priority(.notice), 5)
        XCTAssertEqual(JournalLogHandler.priority(.info), 6)
        XCTAssertEqual(JournalLogHandler.priority(.debug), 7)
        XCTAssertEqual(JournalLogHandler.priority(.trace), 7)
    }

    func testTheMessageComesFirstThenSortedLogfmtFields() {
        let line = JournalLogHandler.line(
            level: .error,
            message: "cannot bind",
            fields: ["endpoint": "tcp://127.0.0.1:7450", "reason": "Address already in use", "errno": "98"]
        )
        XCTAssertEqual(line, #"<3>cannot bind endpoint=tcp://127.0.0.1:7450 errno=98 reason="Address already in use""#)
    }

    func testValuesWithQuotesBackslashesEqualsAndControlsAreQuotedAndEscaped() {
        let line = JournalLogHandler.line(
            level: .warning,
            message: "two\nlines",
            fields: ["quote": "say \"hi\"", "path": #"C:\x"#, "eq": "a=b", "empty": "", "tab": "a\tb"]
        )
        XCTAssertEqual(line, #"<4>two\nlines empty="" eq="a=b" path="C:\\x" quote="say \"hi\"" tab="a\tb""#)
        XCTAssertFalse(line.contains("\n"), "one entry, one line")
    }

    func testListsAreJoinedByCommas() {
        let line = JournalLogHandler.line(
            level: .notice,
            message: "modalwatchd ready",
            fields: ["events": .array(["tcp://a:1", "tcp://b:2"]), "control": .array(["ipc:///run/c.sock"])]
        )
        XCTAssertEqual(line, "<5>modalwatchd ready control=ipc:///run/c.sock events=tcp://a:1,tcp://b:2")
    }

    func testJournalStreamMustNameStderr() {
        var info = stat()
        XCTAssertEqual(fstat(STDERR_FILENO, &info), 0)
        XCTAssertTrue(Posix.stderrIsJournal(environment: ["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino)"]))
        XCTAssertFalse(Posix.stderrIsJournal(environment: ["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino &+ 1)"]))
        XCTAssertFalse(Posix.stderrIsJournal(environment: ["JOURNAL_STREAM": "nonsense"]))
        XCTAssertFalse(Posix.stderrIsJournal(environment: [:]))
    }
}
