/// FNV-1a, 64 bit: the one implementation of the hash behind every key, fingerprint and
/// id in modalwatch, of the C header's `mw_hash`, and of the shard bucket (spec/scale.md).
/// Feed it bytes; `value` is the hash so far.
///
/// Two offset bases: `offsetBasis` is FNV's published one (`init()` starts there; the
/// shard bucket uses it). `modalwatchOffsetBasis` is the one `mw_hash`, RuleKit's `FNV1a`
/// and the engine have always used, a digit short of the published one; every key,
/// fingerprint and violation id is made from it, so it stays.
///
/// ```swift
/// var hasher = FNV1a64()
/// hasher.add(bytes)
/// let bucket = hasher.value % 256
/// ```
///
/// FNV-1a is fast and stable across runs and machines (unlike `Hasher`), but not
/// collision-resistant against chosen input; mix it further where that matters.
@frozen
public struct FNV1a64: Sendable, Hashable {
    /// FNV's published offset basis: the hash of no bytes.
    public static let offsetBasis: UInt64 = 14_695_981_039_346_656_037
    /// The offset basis of the header's `mw_hash` and of every key, fingerprint and id
    /// modalwatch makes (one digit short of `offsetBasis`; kept so that they stay the same).
    public static let modalwatchOffsetBasis: UInt64 = 1_469_598_103_934_665_603
    /// The 64-bit FNV prime.
    public static let prime: UInt64 = 1_099_511_628_211

    /// The hash so far (`value`; settable only here, but visible to inlined code).
    @usableFromInline
    var state: UInt64

    /// The hash of the bytes added so far.
    @inlinable
    public var value: UInt64 { state }

    /// Starts an empty hash.
    @inlinable
    public init() { state = Self.offsetBasis }

    /// Continues a hash whose value so far is `value`.
    @inlinable
    public init(continuing value: UInt64) { state = value }

    /// Adds one byte.
    @inlinable @inline(__always)
    public mutating func add(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* Self.prime
    }

    /// Adds bytes.
    @inlinable
    public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// Adds bytes.
    @inlinable
    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes { add(byte) }
    }

    /// Adds a string's UTF-8.
    @inlinable
    public mutating func add(_ string: String) {
        for byte in string.utf8 { add(byte) }
    }

    /// Adds a static string's bytes.
    @inlinable
    public mutating func add(_ literal: StaticString) {
        literal.withUTF8Buffer { add($0) }
    }

    /// The hash of `bytes`, continuing from `hash` (the offset basis: a fresh hash).
    @inlinable @inline(__always)
    public static func hash(_ bytes: UnsafeRawBufferPointer, continuing hash: UInt64 = offsetBasis) -> UInt64 {
        var hasher = FNV1a64(continuing: hash)
        hasher.add(bytes)
        return hasher.value
    }

    /// The hash of a string's UTF-8, continuing from `hash`.
    @inlinable
    public static func hash(_ string: String, continuing hash: UInt64 = offsetBasis) -> UInt64 {
        var hasher = FNV1a64(continuing: hash)
        hasher.add(string)
        return hasher.value
    }

    /// The hash of a static string, e.g. `FNV1a64.hash("alerts")` for a counter key.
    @inlinable
    public static func hash(_ literal: StaticString) -> UInt64 {
        var hasher = FNV1a64()
        hasher.add(literal)
        return hasher.value
    }
}
