import ByteBasics

/// A growable byte buffer for writing JSON without Foundation: reused, so
/// writing a violation allocates nothing once it has grown.
///
/// Non-copyable: it owns its memory, and every write is a plain store into it
/// (no copy-on-write check, no dynamic exclusivity check per byte).
public struct JSONBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes were written.
    public private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far, copied out.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Forgets the contents, keeping the room.
    public mutating func reset() { count = 0 }

    /// Forgets what was written after the first `length` bytes.
    public mutating func truncate(to length: Int) { count = min(max(length, 0), count) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var size = capacity * 2
        while size < needed { size *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = size
    }

    @inline(__always)
    private mutating func append(_ start: UnsafePointer<UInt8>, _ length: Int) {
        reserve(length)
        ShortCopy.copy(to: UnsafeMutableRawPointer(base + count), from: UnsafeRawPointer(start), count: length)
        count += length
    }

    /// Appends raw bytes (already JSON).
    @inline(__always)
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { if let start = $0.baseAddress { append(start, $0.count) } }
    }

    /// Appends raw bytes (already JSON).
    @inline(__always)
    public mutating func raw(_ buffer: UnsafeRawBufferPointer) {
        guard let start = buffer.baseAddress else { return }
        append(start.assumingMemoryBound(to: UInt8.self), buffer.count)
    }

    /// Appends bytes already JSON (a fragment written once and kept).
    @inline(__always)
    public mutating func raw(_ fragment: [UInt8]) {
        fragment.withUnsafeBufferPointer { if let start = $0.baseAddress { append(start, $0.count) } }
    }

    /// Appends a string's UTF-8 as it is, unescaped (for topics and known-safe text).
    public mutating func text(_ string: String) {
        var string = string
        string.withUTF8 { if let start = $0.baseAddress { append(start, $0.count) } }
    }

    /// Appends one raw byte.
    @inline(__always)
    public mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    /// Appends a whole number: eight digits at a time, each group of eight turned to ASCII in a
    /// few multiplications on one word (`eightDigits`) and stored whole; a 13-digit time is two
    /// groups, the first stored shifted past its leading zeros.
    public mutating func integer(_ value: Int64) {
        reserve(24)
        var magnitude = value.magnitude
        if value < 0 {
            base[count] = 0x2D
            count += 1
        }
        if magnitude < 10 {
            base[count] = UInt8(truncatingIfNeeded: magnitude) &+ 0x30
            count += 1
            return
        }
        let out = UnsafeMutableRawPointer(base + count)
        var written = 0
        if magnitude >= 10_000_000_000_000_000 {
            // 17 to 20 digits: the first one to four, then two groups of eight.
            let top = magnitude / 10_000_000_000_000_000
            magnitude %= 10_000_000_000_000_000
            written = Self.storeLeading(top, at: out)
            out.storeBytes(of: Self.eightDigits(magnitude / 100_000_000), toByteOffset: written, as: UInt64.self)
            written &+= 8
            magnitude %= 100_000_000
        } else if magnitude >= 100_000_000 {
            written = Self.storeLeading(magnitude / 100_000_000, at: out)
            magnitude %= 100_000_000
        } else {
            count &+= Self.storeLeading(magnitude, at: out)
            return
        }
        out.storeBytes(of: Self.eightDigits(magnitude), toByteOffset: written, as: UInt64.self)
        count &+= written &+ 8
    }

    /// Stores the digits of `v` (1 ≤ v < 10⁸) at `out` as one eight-byte word whose leading zeros
    /// are shifted out (the bytes after the digits are scratch: the buffer has room); returns how
    /// many digits.
    @inline(__always)
    private static func storeLeading(_ v: UInt64, at out: UnsafeMutableRawPointer) -> Int {
        let digits = eightDigits(v)
        // The ASCII zeros before the first digit: bytes equal to 0x30 from the lowest.
        let zeros = (digits ^ 0x3030_3030_3030_3030).trailingZeroBitCount &>> 3
        out.storeBytes(of: digits &>> UInt64(zeros &* 8), as: UInt64.self)
        return 8 &- zeros
    }

    /// The eight decimal digits of `v` (< 10⁸, leading zeros included) in ASCII, the first digit in
    /// the lowest byte: split into halves of four digits (32-bit lanes), each into two of two
    /// (16-bit lanes), each into two digits (bytes), the divisions by 100 and 10 done as
    /// multiplications exact for these ranges.
    @inline(__always)
    static func eightDigits(_ v: UInt64) -> UInt64 {
        let high = v / 10_000
        var lanes = high | ((v &- high &* 10_000) << 32)
        let hundreds = ((lanes &* 10_486) >> 20) & 0x0000_007F_0000_007F
        lanes = hundreds | ((lanes &- hundreds &* 100) << 16)
        let tens = ((lanes &* 103) >> 10) & 0x000F_000F_000F_000F
        lanes = tens | ((lanes &- tens &* 10) << 8)
        return lanes | 0x3030_3030_3030_3030
    }

    /// Appends 16 lowercase hex digits: each half's nibbles spread to bytes and turned to
    /// digits eight at a time, stored as two words.
    public mutating func hex64(_ value: UInt64) {
        reserve(16)
        let out = UnsafeMutableRawPointer(base + count)
        out.storeBytes(of: Self.hexDigits(UInt32(truncatingIfNeeded: value >> 32)).bigEndian, as: UInt64.self)
        out.storeBytes(
            of: Self.hexDigits(UInt32(truncatingIfNeeded: value)).bigEndian,
            toByteOffset: 8,
            as: UInt64.self
        )
        count += 16
    }

    /// The eight hex digits of `half`, the last digit in the lowest byte.
    @inline(__always)
    private static func hexDigits(_ half: UInt32) -> UInt64 {
        var v = UInt64(half)
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F  // byte k: nibble k
        let letters = ((v &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101  // 1 where the nibble is 10 or more
        return v &+ 0x3030_3030_3030_3030 &+ letters &* 0x27  // '0' + n, or 'a' + n − 10
    }

    /// Appends a JSON string with quotes, escaping what JSON requires (`JSONStringEscaper`:
    /// plain printable ASCII, ids and most text, copied 16 bytes at a time).
    public mutating func string(_ utf8: UnsafeRawBufferPointer) {
        byte(0x22)
        escaped(utf8)
        byte(0x22)
    }

    /// Appends the UTF-8 text `utf8` escaped as inside a JSON string, without the quotes
    /// (`escapingLineSeparators`: U+2028 and U+2029 as `\u2028`, `\u2029` too).
    public mutating func escaped(_ utf8: UnsafeRawBufferPointer, escapingLineSeparators: Bool = false) {
        let n = utf8.count
        reserve(JSONStringEscaper.maxEscapedLength(n))
        count += JSONStringEscaper.writeEscaped(utf8, to: base + count, escapingLineSeparators: escapingLineSeparators)
    }

    /// Appends a JSON string with quotes.
    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `"key":`.
    @inline(__always)
    public mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { name in
            let length = name.count
            reserve(length + 3)
            base[count] = 0x22
            if let start = name.baseAddress { (base + count + 1).update(from: start, count: length) }
            count += length + 1
            base[count] = 0x22
            base[count + 1] = 0x3A
            count += 2
        }
    }

    /// Overwrites the four bytes at `offset` (already written) with `value` in native byte
    /// order: a length written ahead of what it measures, once that is written.
    public mutating func setUInt32(_ value: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= count, "setUInt32 past the bytes written")
        UnsafeMutableRawPointer(base + offset).storeBytes(of: value, as: UInt32.self)
    }

    /// Runs `body` with the bytes written.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }
}

/// Not `Sendable`: it owns raw memory written by one thread.
@available(*, unavailable)
extension JSONBuffer: Sendable {}
