/// Appends the binary snapshot's primitives to a byte buffer: LEB128 varints,
/// zigzag for signed values, fixed little-endian words for hashes, length-prefixed bytes.
struct SnapshotWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) { bytes.append(value) }

    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    @inline(__always)
    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @inline(__always)
    mutating func signed(_ value: Int32) { signed(Int64(value)) }

    @inline(__always)
    mutating func count(_ value: Int) { unsigned(UInt64(value)) }

    /// A hash: eight bytes, little-endian (a varint would take ten).
    @inline(__always)
    mutating func fixed(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func data(_ value: [UInt8]) {
        count(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) { data(Array(value.utf8)) }

    /// Overwrites eight bytes at `offset` (a header field known only at the end).
    mutating func patch(_ value: UInt64, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { word in
            for i in 0..<8 { bytes[offset + i] = word[i] }
        }
    }
}
