/// A set of object keys the decoder records values for (top-level fields, array-item fields).
protocol WireKey: RawRepresentable where RawValue == UInt8 {
    /// The key whose name is `key`, or nil.
    static func match(_ key: KeyWords) -> Self?
    /// True for the top-level fields (recorded in `EventReader.present`), false for array items.
    static var isTopLevel: Bool { get }
    /// The key's name on the wire.
    var name: StaticString { get }
    /// Where the keys of this set start in `KeyGuess`'s tables, and the index there of "no member yet".
    static var guessBase: Int { get }
    static var guessFirst: Int { get }
}

extension WireKey {
    /// The key whose name is the `count` bytes at `bytes`, or nil.
    @inline(__always)
    static func match(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Self? {
        guard let key = KeyWords(bytes, count) else { return nil }
        return match(key)
    }
}

extension StaticString {
    /// True when the `count` bytes at `bytes` are this string's.
    @inline(__always)
    func isSpelled(by bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard count == utf8CodeUnitCount else { return false }
        let mine = utf8Start
        var i = 0
        while i < count {
            if mine[i] != bytes[i] { return false }
            i += 1
        }
        return true
    }
}
