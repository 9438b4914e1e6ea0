import ModalwatchABI
import RuleKit
import XCTest

/// The catalogue's vocabulary, as RuleKit re-exports it: the C header's values and the one spelling of each.
final class CatalogueVocabularyTests: XCTestCase {
    func testSeveritiesAreTheHeadersAndSpellTheirNames() {
        XCTAssertEqual(
            Severity.allCases.map(\.rawValue),
            [MW_SEVERITY_INFO, MW_SEVERITY_WARNING, MW_SEVERITY_ERROR].map { UInt32($0.rawValue) }
        )
        XCTAssertEqual(Severity.allCases.map(\.name), ["info", "warning", "error"])
        XCTAssertEqual(Severity.allCases.map { Severity(name: $0.name) }, Severity.allCases)
        XCTAssertNil(Severity(name: "Warning"))
        XCTAssertEqual(Severity.allCases.sorted(by: >), [.error, .warning, .info])
    }

    func testEditionsAreTheHeadersBitsAndSpellTheirNames() {
        XCTAssertEqual(Edition.allCases.map(\.rawValue), [MW_EDITION_2009, MW_EDITION_IOS7, MW_EDITION_CURRENT])
        XCTAssertEqual(Edition.allCases.map(\.name), ["2009", "ios7", "current"])
        XCTAssertEqual(Edition.allCases.map { Edition(name: $0.name) }, Edition.allCases)
        XCTAssertNil(Edition(name: "hig2009"))
        XCTAssertEqual(Editions.all.rawValue, MW_EDITION_ALL)
        XCTAssertEqual(Editions.all.members, [.edition2009, .ios7, .current])
        XCTAssertEqual(Editions([.ios7, .current]).names, ["ios7", "current"])
        XCTAssertEqual(Editions(rawValue: MW_EDITION_2009 | MW_EDITION_CURRENT).members, [.edition2009, .current])
        XCTAssertEqual(Editions(.ios7), .ios7)
        XCTAssertTrue(Edition.edition2009 < .ios7 && Edition.ios7 < .current)
    }

    func testPresentationKindsAreTheHeadersAndFollowTheirEvents() {
        XCTAssertEqual(
            PresentationKind.allCases.map(\.rawValue),
            [MW_KIND_ALERT, MW_KIND_SHEET, MW_KIND_MODAL, MW_KIND_POPOVER].map { UInt32($0.rawValue) }
        )
        XCTAssertEqual(PresentationKind.allCases.map(\.name), ["alert", "sheet", "modal", "popover"])
        XCTAssertEqual(PresentationKind.allCases.map { PresentationKind(name: $0.name) }, PresentationKind.allCases)
        let presenting: [(EventType, PresentationKind?)] = [
            (.alertPresented, .alert), (.alertDismissed, .alert), (.sheetPresented, .sheet), (.sheetDismissed, .sheet),
            (.modalPresented, .modal), (.modalDismissed, .modal), (.popoverPresented, .popover),
            (.popoverDismissed, .popover),
            (.navPush, nil), (.sessionStart, nil), (.userAction, nil),
        ]
        for (type, kind) in presenting { XCTAssertEqual(PresentationKind(eventType: type.rawValue), kind, "\(type)") }
    }

    func testParameterKindsAreTheHeadersAndSpellTheirNames() {
        XCTAssertEqual(
            ParameterKind.allCases.map(\.rawValue),
            [MW_PARAM_INT, MW_PARAM_DURATION_MS].map { UInt32($0.rawValue) }
        )
        XCTAssertEqual(ParameterKind.allCases.map(\.name), ["integer", "duration"])
        XCTAssertEqual(ParameterKind.allCases.map { ParameterKind(name: $0.name) }, ParameterKind.allCases)
    }
}
