import ModalwatchConfig
import XCTest

/// `forward --allowed-clients FILE`: one Z85 key a line, `#` comments.
final class CurveAllowListTests: XCTestCase {
    private let key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
    private let hashKey = "#q:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"

    func testKeysCommentsAndBlankLines() throws {
        let text = "# producers\n\n\(key)   # the app servers\n  \(hashKey)\n\t\n"
        XCTAssertEqual(try CurveAllowList.parse(text, path: "clients"), [key, hashKey])
    }

    func testALineThatIsNotAKeyIsOneErrorNamingTheLine() {
        XCTAssertThrowsError(try CurveAllowList.parse("\(key)\nnot-a-key\n", path: "clients")) { error in
            XCTAssertTrue("\(error)".hasPrefix("clients:2: 'not-a-key…' is not a CURVE public key"), "\(error)")
        }
        XCTAssertThrowsError(try CurveAllowList.parse("\(key) trailing\n", path: "clients"))
    }
}
