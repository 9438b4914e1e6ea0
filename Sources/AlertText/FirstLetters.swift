/// The first letters of a list of lowercase ASCII words, as a bit set: a quick
/// way to rule out a word before comparing it with each listed one.
struct FirstLetters {
    /// Bit `n` for letter `a + n`.
    private let mask: UInt32
    /// True when some listed word does not start with a letter: nothing is ruled out then.
    private let admitsAll: Bool

    /// The first letters of `words`.
    init(_ words: [StaticString]) {
        var mask: UInt32 = 0
        var admitsAll = false
        for word in words {
            guard word.hasPointerRepresentation, word.utf8CodeUnitCount > 0 else {
                admitsAll = true
                continue
            }
            let lead = word.utf8Start[0]
            if lead >= 0x61 && lead <= 0x7A { mask |= 1 << UInt32(lead - 0x61) } else { admitsAll = true }
        }
        self.mask = mask
        self.admitsAll = admitsAll
    }

    /// False when `word` cannot equal a listed word ignoring ASCII case: its first byte
    /// is not the first letter of any of them (in either case).
    func admits(_ word: Word) -> Bool {
        if admitsAll { return true }
        guard let lead = word.text.bytes.first else { return false }
        let lower = lead | 0x20
        guard lower >= 0x61 && lower <= 0x7A else { return false }
        return mask & (1 << UInt32(lower - 0x61)) != 0
    }
}
