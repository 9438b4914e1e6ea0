import ByteBasics
import Foundation
import XCTest

/// The wire vocabulary against the contract: each enumeration's spellings, in order, are the
/// schema's `enum` lists (docs/spec/event.schema.json), and `match` reads every spelling back to
/// its value and nothing else (the perfect hashes of `WireVocabulary+Match.swift`).
final class WireVocabularyTests: XCTestCase {
    private static let schemaURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/spec/event.schema.json")

    /// The spellings of every enumeration but the event types, as `match` sees them.
    private let enumerations: [(name: String, spellings: [String], match: (String) -> Int?)] = [
        ("device", WireDevice.allCases.map(\.string), { WireDevice.match($0).map { Int($0.rawValue) } }),
        ("size_class", WireSizeClass.allCases.map(\.string), { WireSizeClass.match($0).map { Int($0.rawValue) } }),
        ("control", WireControl.allCases.map(\.string), { WireControl.match($0).map { Int($0.rawValue) } }),
        ("state", WireTaskState.allCases.map(\.string), { WireTaskState.match($0).map { Int($0.rawValue) } }),
        (
            "buttons[].style", WireButtonStyle.allCases.map(\.string),
            { WireButtonStyle.match($0).map { Int($0.rawValue) } }
        ),
        ("buttons[].role", WireModalRole.allCases.map(\.string), { WireModalRole.match($0).map { Int($0.rawValue) } }),
        ("via", WireVia.allCases.map(\.string), { WireVia.match($0).map { Int($0.rawValue) } }),
        ("modal style", WireModalStyle.allCases.map(\.string), { WireModalStyle.match($0).map { Int($0.rawValue) } }),
        ("transition", WireTransition.allCases.map(\.string), { WireTransition.match($0).map { Int($0.rawValue) } }),
        ("type", WireEventType.allCases.map(\.string), { WireEventType.match($0).map { Int($0.rawValue) - 1 } }),
    ]

    /// Every `enum` list of the schema, in the order it writes them.
    private func schemaEnums() throws -> [[String]] {
        let data = try Data(contentsOf: Self.schemaURL)
        var lists: [[String]] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let list = object["enum"] as? [String] { lists.append(list) }
                for key in object.keys.sorted() { walk(object[key]!) }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try JSONSerialization.jsonObject(with: data))
        return lists
    }

    func testEachEnumerationIsOneOfTheSchemasEnumLists() throws {
        let lists = try schemaEnums()
        XCTAssertFalse(lists.isEmpty)
        for (name, spellings, _) in enumerations where name != "type" {
            XCTAssertTrue(lists.contains(spellings), "\(name): \(spellings) is not an enum list of the schema")
        }
        // Every enum list of the schema is one of the vocabulary's, or a subset of the event types
        // (the schema's `if` clauses).
        let types = Set(WireEventType.allCases.map(\.string))
        for list in lists {
            let known = enumerations.contains { $0.spellings == list } || Set(list).isSubset(of: types)
            XCTAssertTrue(known, "the schema's enum \(list) is not in the wire vocabulary")
        }
    }

    func testTheEventTypesAreNumberedFromOne() {
        XCTAssertEqual(WireEventType.allCases.map(\.rawValue), Array(1...16))
        XCTAssertEqual(WireEventType.sessionStart.string, "session.start")
        XCTAssertEqual(WireEventType.navPop.string, "nav.pop")
    }

    func testEverySpellingMatchesItsValue() {
        for (name, spellings, match) in enumerations {
            for (index, spelling) in spellings.enumerated() {
                XCTAssertEqual(match(spelling), index, "\(name) \(spelling)")
            }
        }
    }

    func testNearMissesMatchNothing() {
        for (name, spellings, match) in enumerations {
            let known = Set(spellings)
            for spelling in spellings {
                var misses = [
                    String(spelling.dropLast()), spelling + "x", spelling + "\0", "x" + spelling,
                    spelling.uppercased(), "", String(spelling.dropFirst()), spelling + spelling,
                ]
                let bytes = Array(spelling.utf8)
                for i in bytes.indices {
                    for flip: UInt8 in [0x01, 0x20, 0x80] {
                        var changed = bytes
                        changed[i] ^= flip
                        misses.append(String(decoding: changed, as: UTF8.self))
                    }
                }
                for miss in misses where !known.contains(miss) {
                    XCTAssertNil(match(miss), "\(name): \(miss.debugDescription) matched")
                }
            }
        }
    }

    /// `string` (generated literals) spells each value as its static `name` does.
    func testEachStringIsItsName() {
        func check<Value: WireValue>(_: Value.Type) {
            for value in Value.allCases {
                XCTAssertEqual(value.string, value.name.description, "\(Value.self).\(value)")
            }
        }
        check(WireDevice.self)
        check(WireSizeClass.self)
        check(WireControl.self)
        check(WireTaskState.self)
        check(WireButtonStyle.self)
        check(WireModalRole.self)
        check(WireVia.self)
        check(WireModalStyle.self)
        check(WireTransition.self)
        check(WireEventType.self)
    }
}
