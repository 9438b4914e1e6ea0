/// MT19937 with CPython's seeding and derivations (`random.Random(seed)`), so the
/// bench generates byte for byte the stream that `bench/generate_stream.py` writes
/// for the same seed.
struct MersenneTwister {
    private var state = [UInt32](repeating: 0, count: 624)
    private var index = 625

    /// Seeded as CPython seeds from a non-negative integer below 2^32: `init_by_array([seed])`.
    init(seed: UInt32) {
        initGenrand(19_650_218)
        let key: [UInt32] = [seed]
        var i = 1, j = 0
        for _ in 0..<max(624, key.count) {
            state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) &* 1_664_525)) &+ key[j] &+ UInt32(j)
            i += 1; j += 1
            if i >= 624 { state[0] = state[623]; i = 1 }
            if j >= key.count { j = 0 }
        }
        for _ in 0..<623 {
            state[i] = (state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) &* 1_566_083_941)) &- UInt32(i)
            i += 1
            if i >= 624 { state[0] = state[623]; i = 1 }
        }
        state[0] = 0x8000_0000
        index = 624
    }

    private mutating func initGenrand(_ seed: UInt32) {
        state[0] = seed
        for i in 1..<624 {
            state[i] = 1_812_433_253 &* (state[i - 1] ^ (state[i - 1] >> 30)) &+ UInt32(i)
        }
        index = 624
    }

    private mutating func twist() {
        for k in 0..<624 {
            let y = (state[k] & 0x8000_0000) | (state[(k + 1) % 624] & 0x7FFF_FFFF)
            var next = state[(k + 397) % 624] ^ (y >> 1)
            if y & 1 != 0 { next ^= 0x9908_B0DF }
            state[k] = next
        }
        index = 0
    }

    /// `genrand_uint32`.
    mutating func next32() -> UInt32 {
        if index >= 624 { twist() }
        var y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C_5680
        y ^= (y << 15) & 0xEFC6_0000
        y ^= y >> 18
        return y
    }

    /// `random.random()`: 53 random bits in [0, 1).
    mutating func random() -> Double {
        let a = UInt64(next32() >> 5), b = UInt64(next32() >> 6)
        return Double(a &* 67_108_864 &+ b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `random.getrandbits(k)` for 1 ≤ k ≤ 32.
    mutating func bits(_ k: Int) -> UInt32 {
        next32() >> UInt32(32 - k)
    }

    /// `random._randbelow(n)` for 1 ≤ n < 2^32: rejection sampling on `n.bit_length()` bits.
    mutating func below(_ n: Int) -> Int {
        let k = Int.bitWidth - n.leadingZeroBitCount
        var r = Int(bits(k))
        while r >= n { r = Int(bits(k)) }
        return r
    }

    /// `random.randrange(start, stop)`.
    mutating func range(_ start: Int, _ stop: Int) -> Int {
        start + below(stop - start)
    }

    /// `random.choice(items)`.
    mutating func choice<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}
