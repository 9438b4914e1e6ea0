import ControlProtocol
import Foundation
import XCTest

/// The daemon's request reader against mutations of the control fuzzer's corpus and its
/// regressions (a seeded, bounded run in the unit tests; `Fuzz/` runs the real fuzzer against a
/// live daemon): every input is read as a request or refused with a sentence, never a trap, and
/// a request read back from its own encoding is the same request.
final class ControlRequestMutationTests: XCTestCase {
    private static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    private func seeds() throws -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for folder in ["corpus/control", "regressions/control"] {
            let url = Self.fuzz.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() {
                seeds.append(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        return seeds
    }

    func testMutatedRequestsAreReadOrRefusedNeverTrapped() throws {
        let seeds = try seeds()
        XCTAssertGreaterThan(seeds.count, 30)
        var generator = SplitMix64(seed: 16)
        let dictionary = [
            #"{"#, #"}"#, #"["#, #"]"#, #"""#, ",", ":", "null", "true", "-1", "1.0", "1e999", #"\u0000"#,
            #""cmd""#, #""status""#, #""sessions""#, #""session""#, #""violations""#, #""limit""#, #""since""#,
            #""id""#, #""ended""#, #""v""#, "18446744073709551616", "\u{FF}",
        ].map { Array($0.utf8) }
        var read = 0
        var refused = 0
        for round in 0..<20_000 {
            var input = seeds[round % seeds.count]
            for _ in 0...(Int(generator.next() % 4)) {
                let position = input.isEmpty ? 0 : Int(generator.next() % UInt64(input.count + 1))
                switch generator.next() % 4 {
                case 0 where !input.isEmpty: input.remove(at: min(position, input.count - 1))
                case 1: input.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                case 2:
                    input.insert(contentsOf: dictionary[Int(generator.next() % UInt64(dictionary.count))], at: position)
                default:
                    if !input.isEmpty {
                        input[min(position, input.count - 1)] = UInt8(truncatingIfNeeded: generator.next())
                    }
                }
            }
            do {
                let request = try ControlRequest(parsing: input)
                XCTAssertEqual(
                    try ControlRequest(parsing: request.encoded()),
                    request,
                    String(decoding: input, as: UTF8.self)
                )
                read += 1
            } catch {
                XCTAssertFalse(error.message.isEmpty)
                XCTAssertFalse(error.message.contains("\n"), "one sentence")
                refused += 1
            }
        }
        XCTAssertGreaterThan(read, 100, "the mutations reach the commands, not only the JSON reader")
        XCTAssertGreaterThan(refused, 100)
    }
}

/// A small seeded generator (SplitMix64), so that a failure can be replayed.
private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
