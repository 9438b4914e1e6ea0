import XCTest

@testable import SessionEngine

/// `IntegerMap` and `WindowRings` (the rules' per-session state) against plain
/// dictionaries and arrays doing the same work, over seeded random operations.
final class RuleStateStorageTests: XCTestCase {
    /// A small deterministic generator (xorshift64*), so a failure replays.
    private struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Keys solved to share one probe run under unkeyed Fibonacci positions (the top bits of
    /// `key × 0x9E3779B97F4A7C15`, a product the odd constant's inverse mod 2^64 undoes) spread
    /// out under the keyed ones: a lookup reads a few positions, not one per earlier key.
    /// Above the longest probe of random keys in a linearly probed table filled to three quarters
    /// (about 40 to 100 for 50,000 keys), far below the one run of solved keys (50,000).
    private static let longestRandomProbe = 256

    func testKeysSolvedToCollideWithoutTheSecretDoNotCollide() {
        let constant: UInt64 = 0x9E37_79B9_7F4A_7C15
        var inverse = constant  // Newton's iteration for the constant's inverse mod 2^64
        for _ in 0..<6 { inverse = inverse &* (2 &- constant &* inverse) }
        XCTAssertEqual(constant &* inverse, 1)
        // 50,000 keys take a table of 2^17 positions (a shift of 47). Every key's product has the
        // same top 17 bits, so every key has the same unkeyed position in it and in each smaller table.
        let run: UInt64 = 0x1_2345
        let keys = (1...50_000).map { n in (run << 47 | UInt64(n)) &* inverse }
        XCTAssertEqual(Set(keys.map { ($0 &* constant) >> 47 }), [run])
        var map = IntegerMap()
        var longest = 0
        for (n, key) in keys.enumerated() {
            map.set(key, Int64(n))
            // Checked as the map fills: unkeyed positions fail here at once, not after 50,000²/2 probes.
            if n % 256 == 255 { longest = max(longest, map.probes(key)) }
            if longest >= Self.longestRandomProbe { break }
        }
        XCTAssertLessThan(longest, Self.longestRandomProbe, "the longest probe while inserting 50,000 solved keys")
        guard longest < Self.longestRandomProbe else { return }
        XCTAssertEqual(map.count, keys.count)
        var total = 0
        var wrong = 0
        for (n, key) in keys.enumerated() {
            let probes = map.probes(key)
            total += probes
            longest = max(longest, probes)
            if map.value(key) != Int64(n) { wrong += 1 }
        }
        XCTAssertEqual(wrong, 0)
        XCTAssertLessThan(longest, Self.longestRandomProbe, "the longest probe over 50,000 solved keys")
        XCTAssertLessThan(total, 2 * keys.count, "the probes of all 50,000 lookups")
    }

    func testIntegerMapAgreesWithADictionary() {
        var random = Generator(state: 0x5EED)
        var map = IntegerMap()
        var reference: [UInt64: Int64] = [:]
        // Few distinct keys (so keys repeat), key 0 among them, and keys that share their high bits.
        var keys: [UInt64] = [0]
        for i in 1..<300 {
            let key: UInt64 = i % 3 == 0 ? UInt64(i) << 40 : random.next()
            keys.append(key)
        }
        for round in 0..<20_000 {
            let key = keys[random.next(below: keys.count)]
            let delta = Int64(random.next(below: 5)) - 2
            switch random.next(below: 4) {
            case 0:
                let expected = (reference[key] ?? 0) &+ delta
                if delta != 0 { reference[key] = expected }
                XCTAssertEqual(map.add(key, delta), expected)
            case 1:
                XCTAssertEqual(map.insert(key), reference[key] == nil)
                if reference[key] == nil { reference[key] = 1 }
            case 2:
                map.set(key, delta)
                reference[key] = delta
            default:
                XCTAssertEqual(map.value(key), reference[key])
            }
            XCTAssertEqual(map.count, reference.count)
            if round == 10_000 {
                XCTAssertEqual(map.dictionary, reference)
                map.removeAll()
                reference.removeAll()
                XCTAssertNil(map.value(keys[1]))
                XCTAssertFalse(map.contains(0))
            }
        }
        XCTAssertEqual(map.dictionary, reference)
        XCTAssertEqual(map.keySet, Set(reference.keys))
        map.replace(with: [7: 70, 0: -1])
        XCTAssertEqual(map.dictionary, [7: 70, 0: -1])
    }

    /// The windows as the engine kept them before: an array per key, oldest first.
    private static func referencePush(_ ts: Int64, window: Int64, limit: Int, into times: inout [Int64]) -> Int {
        let oldest = ts.addingSaturated(-max(window, 0))
        var drop = 0
        while drop < times.count && times[drop] < oldest { drop += 1 }
        if times.count - drop + 1 > limit { drop = times.count + 1 - limit }
        if drop > 0 { times.removeFirst(drop) }
        times.append(ts)
        return times.count
    }

    func testWindowRingsAgreeWithArrays() {
        var random = Generator(state: 0xC0FFEE)
        var rings = WindowRings()
        var reference: [UInt64: [Int64]] = [:]
        let keys: [UInt64] = [0, 1, 2, 1 << 50, random.next(), random.next(), random.next()]
        var ts: Int64 = 1_732_290_000_000
        for round in 0..<30_000 {
            ts += Int64(random.next(below: 200))
            let key = keys[random.next(below: keys.count)]
            // Windows from nothing to long, limits from 1 past the 8 a ring starts with (so rings grow and move).
            let window = [Int64(0), 50, 1_000, 20_000, 600_000][random.next(below: 5)]
            let limit = [1, 3, 8, 9, 40, 300][random.next(below: 6)]
            let expected = Self.referencePush(ts, window: window, limit: limit, into: &reference[key, default: []])
            XCTAssertEqual(rings.push(ts, key: key, window: window, limit: limit), expected, "round \(round)")
            if round == 15_000 {
                XCTAssertEqual(rings.dictionary, reference)
                rings.removeAll()
                reference.removeAll()
                XCTAssertEqual(rings.count, 0)
            }
        }
        XCTAssertEqual(rings.dictionary, reference)
        var restored = WindowRings()
        restored.replace(with: reference)
        XCTAssertEqual(restored.dictionary, reference)
        // A restored window goes on as the one it was taken from.
        for key in keys {
            ts += 10
            XCTAssertEqual(
                restored.push(ts, key: key, window: 600_000, limit: 300),
                rings.push(ts, key: key, window: 600_000, limit: 300)
            )
        }
        XCTAssertEqual(restored.dictionary, rings.dictionary)
    }

    /// Maps and windows of a few keys, as most sessions have: the inline keys, rings and times,
    /// and the move out of them, each from a fresh value.
    func testSmallMapsAndWindowsAgreeToo() {
        var random = Generator(state: 0x5A11)
        for trial in 0..<400 {
            var map = IntegerMap()
            var reference: [UInt64: Int64] = [:]
            let keys: [UInt64] = (0..<(1 + trial % 4)).map { i in i == 0 && trial % 5 == 0 ? 0 : random.next() }
            for _ in 0..<(trial % 12) {
                let key = keys[random.next(below: keys.count)]
                let delta = Int64(random.next(below: 3)) + 1
                let expected = (reference[key] ?? 0) &+ delta
                reference[key] = expected
                XCTAssertEqual(map.add(key, delta), expected, "trial \(trial)")
                XCTAssertEqual(map.count, reference.count, "trial \(trial)")
            }
            for key in keys { XCTAssertEqual(map.value(key), reference[key], "trial \(trial)") }
            XCTAssertEqual(map.dictionary, reference, "trial \(trial)")
            map.removeAll()
            XCTAssertEqual(map.count, 0)
            for key in keys { XCTAssertNil(map.value(key)) }

            var rings = WindowRings()
            var times: [UInt64: [Int64]] = [:]
            let ringKeys: [UInt64] = (0..<(1 + trial % 3)).map { _ in random.next() }
            let limit = [1, 3, 4, 5, 8, 32][trial % 6]
            var ts: Int64 = 1_000
            for round in 0..<(trial % 20) {
                ts += Int64(random.next(below: 300))
                let key = ringKeys[random.next(below: ringKeys.count)]
                let expected = Self.referencePush(ts, window: 2_000, limit: limit, into: &times[key, default: []])
                XCTAssertEqual(
                    rings.push(ts, key: key, window: 2_000, limit: limit),
                    expected,
                    "trial \(trial), round \(round)"
                )
            }
            XCTAssertEqual(rings.dictionary, times, "trial \(trial)")
        }
    }
}
