import ControlProtocol
import Foundation
import ModalwatchConfig
import XCTest

@testable import modalwatch

/// The pieces that make the command line even: suggestions, word wrapping, the rules listing,
/// JSON without `\/`, where the daemon is looked for, and `top` in 80 columns.
final class CommandLineEvennessTests: XCTestCase {
    func testAMistypedNameGetsTheNearestKnownOne() {
        let commands = ["status", "sessions", "session", "top", "tail", "violations", "rules", "check"]
        XCTAssertEqual(Suggestion.closest(to: "staus", in: commands), "status")
        XCTAssertEqual(Suggestion.closest(to: "violatons", in: commands), "violations")
        XCTAssertEqual(Suggestion.closest(to: "tial", in: commands), "tail")
        XCTAssertNil(Suggestion.closest(to: "xyzzy", in: commands))
        XCTAssertEqual(
            Suggestion.closest(to: "alert-frequncy", in: ["alert-frequency", "modal-depth"]),
            "alert-frequency"
        )
    }

    func testAnUnknownFirstArgumentIsOneLineWithTheNearestCommand() {
        XCTAssertEqual(
            Modalwatch.unknownSubcommand(["staus"]),
            "unknown command 'staus'; did you mean 'status'? (modalwatch --help lists them)"
        )
        XCTAssertNil(Modalwatch.unknownSubcommand(["status", "--bogus"]), "a command: its own error")
        XCTAssertNil(Modalwatch.unknownSubcommand(["--version"]))
        XCTAssertEqual(
            Modalwatch.unknownSubcommand(["frobnicate"]),
            "unknown command 'frobnicate'; modalwatch --help lists them"
        )
    }

    func testWordWrapBreaksAtSpacesOnly() {
        let text = "An alert that interrupts people for routine progress instead of an inline indicator."
        let lines = WordWrap.lines(text, width: 30)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 30 }, "\(lines)")
        XCTAssertEqual(lines.joined(separator: " "), text, "no word cut")
        XCTAssertEqual(WordWrap.lines("unbreakable-long-word short", width: 5), ["unbreakable-long-word", "short"])
        XCTAssertEqual(WordWrap.lines("", width: 10), [])
    }

    func testTheRulesListingHasAHeaderAndWrapsSummariesAtWords() {
        var listing = RulesListing()
        let summary =
            "Flags alerts that ask people to confirm routine actions they started themselves, many times a day."
        listing.rows = [
            .init(
                id: "alert-frequency",
                active: true,
                module: "alerts",
                severity: "warning",
                editions: ["2009", "ios7", "current"],
                parameters: ["limit=3", "window=10m"],
                guideline: summary,
                firesWhen: nil
            ),
            .init(
                id: "modal-depth",
                active: false,
                module: "modality",
                severity: "error",
                editions: ["current"],
                parameters: [],
                guideline: "Too deep.",
                firesWhen: "a modal makes the depth exceed max_depth"
            ),
        ]
        let lines = listing.lines(width: 60)
        XCTAssertTrue(lines[0].hasPrefix("RULE"))
        XCTAssertFalse(lines[0].contains("PARAMETERS"), "too narrow for a parameters column")
        XCTAssertTrue(lines.allSatisfy { Terminal.visibleWidth($0) <= 60 }, lines.joined(separator: "\n"))
        let start = (lines.firstIndex { $0.hasPrefix("alert-frequency") } ?? 0) + 1
        let end = lines.firstIndex { $0.hasPrefix("modal-depth (off)") } ?? lines.count
        let under = lines[start..<end].map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(
            under.first,
            "parameters: limit=3 window=10m",
            "too narrow for a parameters column: under the row"
        )
        XCTAssertEqual(under.dropFirst().joined(separator: " "), summary, "the summary, wrapped at words")
        XCTAssertTrue(listing.lines(width: 120)[0].hasSuffix("PARAMETERS"), "wide enough: a parameters column")
        XCTAssertEqual(
            listing.lines(width: nil).filter { $0.contains("Flags alerts") },
            ["    " + summary],
            "piped: one line"
        )
        XCTAssertTrue(
            listing.lines(width: nil).contains { $0.hasPrefix("modal-depth (off)") && $0.hasSuffix("  -") },
            "no parameters: -"
        )
        XCTAssertTrue(
            listing.lines(width: nil).contains("    fires when: a modal makes the depth exceed max_depth"),
            "--verbose: when it fires, under the guideline"
        )
    }

    func testJSONOutputWritesSlashesAsTheyAre() {
        XCTAssertEqual(
            String(
                decoding: JSONOutput.unescapingSlashes(Array(#"{"a":"tcp:\/\/x","b":"c:\\\/d"}"#.utf8)),
                as: UTF8.self
            ),
            #"{"a":"tcp://x","b":"c:\\/d"}"#
        )
        XCTAssertEqual(
            JSONWriter.encode(.string("ipc:///run/x"), options: .withoutEscapingSlashes),
            Array(#""ipc:///run/x""#.utf8)
        )
    }

    func testTheFlagBeatsTheEnvironmentBeatsTheConfigFileBeatsTheDefault() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mw-location-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("modalwatchd.yaml").path
        try "control: ipc:///from/config.sock\npublish: tcp://127.0.0.1:9451\n".write(
            toFile: config,
            atomically: true,
            encoding: .utf8
        )
        let withConfig = DaemonLocation(configFlag: nil, environment: ["MODALWATCH_CONFIG": config])
        XCTAssertEqual(withConfig.control([]), ["ipc:///from/config.sock"])
        XCTAssertEqual(withConfig.publish([]), ["tcp://127.0.0.1:9451"])
        let withEnvironment = DaemonLocation(
            configFlag: config,
            environment: ["MODALWATCH_CONTROL": "tcp://a:1,tcp://b:2"]
        )
        XCTAssertEqual(withEnvironment.control([]), ["tcp://a:1", "tcp://b:2"])
        XCTAssertEqual(withEnvironment.control(["tcp://flag:3"]), ["tcp://flag:3"])
        XCTAssertThrowsError(
            try DaemonLocation(configFlag: folder.appendingPathComponent("absent.yaml").path, environment: [:])
                .validate()
        )
        let empty = folder.appendingPathComponent("empty.yaml").path
        try "edition: current\n".write(toFile: empty, atomically: true, encoding: .utf8)
        XCTAssertEqual(DaemonLocation(configFlag: empty, environment: [:]).control([]), [DefaultEndpoints.control])
    }

    func testTopHeaderFlowsAndNamesGiveWayIn80Columns() {
        let parts = [
            "modalwatch top", "tcp://127.0.0.1:7452", "modalwatchd 1.0.0, up 3 h 12 m, edition current", "12:00:00",
        ]
        let lines = TopScreen.flow(parts, width: 80, gap: 2)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 })
        XCTAssertEqual(lines.joined(separator: "  "), parts.joined(separator: "  "), "nothing cut")
        let (id, app) = TopScreen.nameWidths(
            ids: ["session-0123456789"],
            apps: ["com.example.a-rather-long-application-identifier"],
            width: 80,
            numbers: 60
        )
        XCTAssertLessThanOrEqual(id + app + 2 + 60, 80)
        XCTAssertEqual(TopScreen.cut("com.example.long", 8), "com.exa…")
    }
}
