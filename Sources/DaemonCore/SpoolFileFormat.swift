/// The spool's spill file (`spool.bin`): a header, then one frame per violation record, so
/// that a damaged byte costs the record it is in, never the records after it.
///
/// | part | bytes | what |
/// | --- | --- | --- |
/// | header | 16 | `MWSPOOL\n`, the version (UInt32, little-endian, 2), four zero bytes |
/// | frame | 12 + n | the marker `MWRF`, the record's length n and its CRC-32 (UInt32s, little-endian), the record |
///
/// A record is one `OutboundBatch` violation record. Reading resynchronises after damage on
/// the next marker whose frame has a sound length, checksum and record (`scan`).
enum SpoolFileFormat {
    /// The header's first eight bytes.
    static let magic: [UInt8] = Array("MWSPOOL\n".utf8)
    /// The format's version in the header.
    static let version: UInt32 = 2
    static let headerBytes = 16
    /// `MWRF` read as a little-endian UInt32.
    static let frameMarker: UInt32 = 0x4652_574D
    static let frameHeaderBytes = 12
    /// The largest record a frame may hold (a violation is at most a few hundred KiB).
    static let maxRecordBytes = 4 << 20

    /// What the first bytes of a file say.
    enum Kind: Equatable {
        /// This format, this version.
        case framed
        /// This format's magic with another version.
        case otherVersion(UInt32)
        /// No header: the unframed records an older release wrote, or something else.
        case unframed
    }

    /// The header of a new file.
    static var header: [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: version.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [0, 0, 0, 0])
        return bytes
    }

    /// The kind of a file that begins with `bytes` (at least `headerBytes` of them when it has a header).
    static func kind(of bytes: UnsafeRawBufferPointer) -> Kind {
        guard bytes.count >= headerBytes, bytes.prefix(magic.count).elementsEqual(magic) else { return .unframed }
        let found = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: magic.count, as: UInt32.self))
        return found == version ? .framed : .otherVersion(found)
    }

    /// Appends the frame of `record` to `out`.
    static func appendFrame(of record: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        for value in [frameMarker, UInt32(record.count), CRC32.checksum(record)] {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        out.append(contentsOf: record)
    }

    /// One step of reading frames.
    enum Step {
        /// A sound frame: its record, and where the next frame starts.
        case record(UnsafeRawBufferPointer, end: Int)
        /// Damaged bytes from `start` up to `end`, where a sound frame (or the file's end) begins.
        case damaged(start: Int, end: Int)
        /// The frame at this offset runs past the bytes read: read more (not at the file's end).
        case incomplete
    }

    /// The step at `offset` of `bytes`, which are the file's bytes from some point on, up to
    /// its end when `atFileEnd`; nil when `offset` is at the end of `bytes`.
    static func scan(_ bytes: UnsafeRawBufferPointer, at offset: Int, atFileEnd: Bool) -> Step? {
        guard offset < bytes.count else { return nil }
        switch frame(bytes, at: offset) {
        case .sound(let record, let end): return .record(record, end: end)
        case .incomplete where !atFileEnd: return .incomplete
        case .incomplete, .unsound: break
        }
        // Damage: the next sound frame, found by its marker.
        var candidate = offset + 1
        while candidate + 4 <= bytes.count {
            if bytes.loadUnaligned(fromByteOffset: candidate, as: UInt32.self) == frameMarker.littleEndian {
                switch frame(bytes, at: candidate) {
                case .sound: return .damaged(start: offset, end: candidate)
                case .incomplete where !atFileEnd: return .damaged(start: offset, end: candidate)
                case .incomplete, .unsound: break
                }
            }
            candidate += 1
        }
        if atFileEnd { return .damaged(start: offset, end: bytes.count) }
        // A marker may start in the last three bytes: leave them for the next read.
        let end = bytes.count - 3
        return end > offset ? .damaged(start: offset, end: end) : .incomplete
    }

    private enum Frame {
        case sound(UnsafeRawBufferPointer, end: Int)
        case incomplete
        case unsound
    }

    private static func frame(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Frame {
        guard offset + frameHeaderBytes <= bytes.count else {
            // Too few bytes to tell; a wrong marker is unsound already.
            if offset + 4 <= bytes.count, bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != frameMarker.littleEndian {
                return .unsound
            }
            return .incomplete
        }
        let marker = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
        let checksum = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
        guard marker == frameMarker, length > 0, length <= maxRecordBytes else { return .unsound }
        let start = offset + frameHeaderBytes
        guard start + length <= bytes.count else { return .incomplete }
        let record = UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])
        guard CRC32.checksum(record) == checksum, isOneViolation(record) else { return .unsound }
        return .sound(record, end: start + length)
    }

    /// Whether `record` is exactly one violation record.
    static func isOneViolation(_ record: UnsafeRawBufferPointer) -> Bool {
        var reader = OutboundBatchReader(record)
        guard case .violation? = reader.next() else { return false }
        return reader.offset == record.count
    }
}

/// CRC-32 (ISO-HDLC, the one of zlib and gzip), a table lookup a byte.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
