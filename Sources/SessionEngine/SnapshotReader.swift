/// Reads the binary snapshot's primitives (see `SnapshotWriter`) with a bounds
/// check on every read: a short or malformed body throws, it never reads past the end.
struct SnapshotReader {
    private let base: UnsafeRawBufferPointer
    /// The next byte to read.
    private(set) var offset: Int

    init(_ base: UnsafeRawBufferPointer, offset: Int = 0) {
        self.base = base
        self.offset = offset
    }

    /// Bytes left.
    var remaining: Int { base.count - offset }

    private func truncated() -> SnapshotFormatError { .truncated(offset: offset) }

    mutating func byte() throws(SnapshotFormatError) -> UInt8 {
        guard offset < base.count else { throw truncated() }
        defer { offset += 1 }
        return base[offset]
    }

    mutating func unsigned() throws(SnapshotFormatError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64, !(shift == 63 && b > 1) else {
                throw .malformed("a varint longer than 64 bits", offset: offset)
            }
            value |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(SnapshotFormatError) -> Int64 {
        let raw = try unsigned()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func signed32() throws(SnapshotFormatError) -> Int32 {
        let value = try signed()
        guard let narrow = Int32(exactly: value) else {
            throw .malformed("a 32-bit field out of range", offset: offset)
        }
        return narrow
    }

    /// A count of items that each take at least `minimumSize` bytes; checked against what is left.
    mutating func count(minimumSize: Int = 1) throws(SnapshotFormatError) -> Int {
        let value = try unsigned()
        guard value <= UInt64(remaining / max(1, minimumSize)) else {
            throw .malformed("a count larger than the bytes left", offset: offset)
        }
        return Int(value)
    }

    mutating func fixed() throws(SnapshotFormatError) -> UInt64 {
        guard remaining >= 8 else { throw truncated() }
        defer { offset += 8 }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func data() throws(SnapshotFormatError) -> [UInt8] {
        let length = try count()
        defer { offset += length }
        return Array(UnsafeRawBufferPointer(rebasing: base[offset..<(offset + length)]))
    }

    mutating func string() throws(SnapshotFormatError) -> String {
        let bytes = try data()
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .malformed("a name that is not UTF-8", offset: offset)
        }
        return text
    }
}
