import Foundation
import XCTest

@testable import AlertText

/// The short word lists (`Pronouns`, `InstructionVerbs`, `MinorWords`) match by an integer
/// `switch` on `Word.asciiKey`: they must say exactly what comparing with every listed word
/// (`Word.equals`) says, for the listed words in any case and with either apostrophe, and
/// for words that are near them.
final class WordListKeyTests: XCTestCase {
    private let lists: [(name: String, all: [StaticString], contains: (Word) -> Bool)] = [
        ("Pronouns", Pronouns.all, Pronouns.contains),
        ("InstructionVerbs", InstructionVerbs.all, InstructionVerbs.contains),
        ("MinorWords", MinorWords.all, MinorWords.contains),
    ]

    /// Every word of `text` and what each list says of it, against a comparison with each listed word.
    private func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        TextSlice.with(text) { slice in
            for word in slice.words {
                for list in lists {
                    let expected = list.all.contains { word.equals($0) }
                    XCTAssertEqual(
                        list.contains(word),
                        expected,
                        "\(list.name) of “\(word.string)”",
                        file: file,
                        line: line
                    )
                }
            }
        }
    }

    func testListedWordsInAnyCaseAndWithEitherApostrophe() {
        for list in lists {
            for literal in list.all {
                let word = literal.description
                for form in [word, word.uppercased(), word.capitalized, word.replacingOccurrences(of: "'", with: "’")] {
                    check(form)
                    TextSlice.with(form) { XCTAssertTrue(list.contains($0.firstWord!), "\(list.name): \(form)") }
                }
            }
        }
    }

    func testNearMisses() {
        check("yo youre you’ll yourself mine YOUR’S m y ma tapped taps Tap tou touches clicks pressed chooses selects")
        check("an' a’ the’ intoo onto on to up upo viaa wit with’ über naïve Ünd é 写真 you‘re you`re")
        check("abcdefgh abcdefghi you're’’ ’’’’’’’’’ ''''''''' 12345678 tap1 1tap")
    }

    func testTheKeyOfALongOrNonASCIIWordIsNil() {
        TextSlice.with("abcdefghi naïve ’’’’’’’’ you’re") { slice in
            let keys = slice.words.map(\.asciiKey)
            XCTAssertEqual(keys.count, 3)  // the apostrophes alone are no word
            XCTAssertNil(keys[0])
            XCTAssertNil(keys[1])
            XCTAssertEqual(keys[2], 0x6572_2775_6F79)
        }
    }
}
