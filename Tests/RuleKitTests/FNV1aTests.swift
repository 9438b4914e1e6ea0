import ModalwatchABI
import RuleKit
import XCTest

/// RuleKit's `FNV1a` is the header's `mw_hash`, byte for byte, however the bytes are fed: a Swift
/// module and a C module make the same counter keys. (Both start from the offset basis
/// 1469598103934665603, one digit short of the published FNV-1a 64 basis; the ABI fixes it, and
/// violation fingerprints depend on it, so it stays.)
final class FNV1aTests: XCTestCase {
    private func hash(_ text: String) -> UInt64 {
        var hash = FNV1a()
        Array(text.utf8).withUnsafeBufferPointer { hash.add($0) }
        return hash.value
    }

    private func header(_ text: String) -> UInt64 {
        Array(text.utf8).withUnsafeBytes { mw_hash($0.baseAddress, $0.count) }
    }

    func testTheSameAsTheHeadersHash() {
        for text in ["", "a", "foobar", "alert-frequency", "com.example.mail", "Délétë 🙂"] {
            XCTAssertEqual(hash(text), header(text), text)
        }
        XCTAssertEqual(hash(""), 1_469_598_103_934_665_603)
    }

    func testByteByByteEqualsAllAtOnce() {
        var bytes = FNV1a()
        for byte in "alert-frequency".utf8 { bytes.add(byte) }
        var literal = FNV1a()
        literal.add("alert-frequency" as StaticString)
        XCTAssertEqual(bytes.value, hash("alert-frequency"))
        XCTAssertEqual(literal.value, hash("alert-frequency"))
        XCTAssertNotEqual(hash("alert-frequency"), hash("alert-frequencz"))
    }
}
