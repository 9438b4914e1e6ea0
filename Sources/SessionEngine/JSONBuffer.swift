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
        (base + count).update(from: start, count: length)
        count += length
    }

    /// Appends raw bytes (already JSON).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { if let start = $0.baseAddress { append(start, $0.count) } }
    }

    /// Appends raw bytes (already JSON).
    public mutating func raw(_ buffer: UnsafeRawBufferPointer) {
        guard let start = buffer.baseAddress else { return }
        append(start.assumingMemoryBound(to: UInt8.self), buffer.count)
    }

    /// Appends bytes already JSON (a fragment written once and kept).
    public mutating func raw(_ fragment: [UInt8]) {
        fragment.withUnsafeBufferPointer { if let start = $0.baseAddress { append(start, $0.count) } }
    }

    /// Appends a string's UTF-8 as it is, unescaped (for topics and known-safe text).
    public mutating func text(_ string: String) {
        var string = string
        string.withUTF8 { if let start = $0.baseAddress { append(start, $0.count) } }
    }

    /// Appends one raw byte.
    public mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    /// Appends a whole number.
    public mutating func integer(_ value: Int64) {
        reserve(20)
        var magnitude = value.magnitude
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        if value < 0 {
            base[count] = 0x2D
            count += 1
        }
        var position = count + digits
        count = position
        repeat {
            position -= 1
            base[position] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 0x30
            magnitude /= 10
        } while magnitude > 0
    }

    /// Appends 16 lowercase hex digits.
    public mutating func hex64(_ value: UInt64) {
        reserve(16)
        for i in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * i)) & 0xF
            base[count + i] = nibble < 10 ? nibble &+ 0x30 : nibble &+ 0x57
        }
        count += 16
    }

    /// Appends a JSON string with quotes, escaping what JSON requires.
    public mutating func string(_ utf8: UnsafeRawBufferPointer) {
        reserve(JSONStringEscaper.maxEscapedLength(utf8.count) + 2)
        base[count] = 0x22
        count += 1
        count += JSONStringEscaper.writeEscaped(utf8, to: base + count)
        base[count] = 0x22
        count += 1
    }

    /// Appends a JSON string with quotes.
    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { string(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `"key":`.
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

    /// Runs `body` with the bytes written.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }
}

/// Not `Sendable`: it owns raw memory written by one thread.
@available(*, unavailable)
extension JSONBuffer: Sendable {}
