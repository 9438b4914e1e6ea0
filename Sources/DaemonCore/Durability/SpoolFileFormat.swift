import ByteBasics

/// The spool's spill file (`spool.bin`): a header, then one frame per violation record, so
/// that a damaged byte costs the record it is in, never the records after it.
///
/// | part | bytes | what |
/// | --- | --- | --- |
/// | header | 16 | `MWSPOOL\n`, the version (UInt32, little-endian, 2), four zero bytes |
/// | frame | 12 + n | the marker `MWRF`, the record's length n and its CRC-32 (UInt32s, little-endian), the record |
///
/// A record is one `OutboundBatch` violation record whose event time (`ts`) and observed time
/// lie in `EventTime.minMs...EventTime.maxMs`, as every violation the daemon makes does: the
/// file is read back at the next start, so each integer it holds is bounded where it is read
/// (a frame's length by `maxRecordBytes`, a record's lengths by the frame, its times by
/// `EventTime`). A frame whose checksum holds but whose record is not sound is damaged by itself;
/// after other damage reading resynchronises on the next marker whose frame has a sound length
/// and checksum (`scan`).
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

    /// What makes a frame unsound: the field named in the line that logs the damage.
    enum Flaw: Equatable, CustomStringConvertible {
        /// The four bytes where a frame starts are not `MWRF`.
        case marker
        /// The frame's length is 0 or past `maxRecordBytes`.
        case length(UInt32)
        /// The frame runs past the file's end.
        case truncated
        /// The record's CRC-32 is not the frame's.
        case checksum
        /// The record is not exactly one violation record (a length in it runs past the frame, or bytes follow).
        case record
        /// The record's `ts` or `observed` is outside `EventTime.minMs...EventTime.maxMs`.
        case time(field: String, value: Int64)

        /// The field the flaw is in.
        var field: String {
            switch self {
            case .marker: "marker"
            case .length, .truncated: "length"
            case .checksum: "crc32"
            case .record: "record"
            case .time(let field, _): field
            }
        }

        /// The flaw in a few words.
        var description: String {
            switch self {
            case .marker: "no frame marker (MWRF)"
            case .length(let length): "a frame length of \(length) bytes, not 1 to \(SpoolFileFormat.maxRecordBytes)"
            case .truncated: "the frame runs past the file's end"
            case .checksum: "the record's CRC-32 is not the frame's"
            case .record: "not exactly one violation record"
            case .time(let field, let value):
                "\(field) \(value) is outside \(EventTime.minMs)...\(EventTime.maxMs) (1970 to year 9999)"
            }
        }
    }

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
        /// Damaged bytes from `start` up to `end`, where a sound frame (or the file's end) begins;
        /// `flaw` is what is wrong with the frame at `start`.
        case damaged(start: Int, end: Int, flaw: Flaw)
        /// The frame at this offset runs past the bytes read: read more (not at the file's end).
        case incomplete
    }

    /// The step at `offset` of `bytes`, which are the file's bytes from some point on, up to
    /// its end when `atFileEnd`; nil when `offset` is at the end of `bytes`.
    static func scan(_ bytes: UnsafeRawBufferPointer, at offset: Int, atFileEnd: Bool) -> Step? {
        guard offset < bytes.count else { return nil }
        let flaw: Flaw
        switch frame(bytes, at: offset) {
        case .sound(let record, let end): return .record(record, end: end)
        case .incomplete where !atFileEnd: return .incomplete
        case .incomplete: flaw = .truncated
        case .unsound(let found, let end?): return .damaged(start: offset, end: end, flaw: found)
        case .unsound(let found, nil): flaw = found
        }
        // Damage up to the next frame whose checksum holds, found by its marker.
        var candidate = offset + 1
        while candidate + 4 <= bytes.count {
            if bytes.loadUnaligned(fromByteOffset: candidate, as: UInt32.self) == frameMarker.littleEndian {
                switch frame(bytes, at: candidate) {
                case .sound, .unsound(_, _?): return .damaged(start: offset, end: candidate, flaw: flaw)
                case .incomplete where !atFileEnd: return .damaged(start: offset, end: candidate, flaw: flaw)
                case .incomplete, .unsound: break
                }
            }
            candidate += 1
        }
        if atFileEnd { return .damaged(start: offset, end: bytes.count, flaw: flaw) }
        // A marker may start in the last three bytes: leave them for the next read.
        let end = bytes.count - 3
        return end > offset ? .damaged(start: offset, end: end, flaw: flaw) : .incomplete
    }

    /// What the bytes at one offset hold.
    private enum Frame {
        /// A sound frame: its record, and where it ends.
        case sound(UnsafeRawBufferPointer, end: Int)
        /// The start of a frame whose end is past the bytes.
        case incomplete
        /// No sound frame, for this reason; `end` is where the frame ends when its checksum holds
        /// (its length is then known sound: only its record is not), nil when it is unknown.
        case unsound(Flaw, end: Int?)
    }

    /// The frame at `offset` of `bytes`: its marker, its length (bounded before it is used as
    /// one), its checksum and its record.
    private static func frame(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Frame {
        guard bytes.count - offset >= frameHeaderBytes else {
            // Too few bytes to tell; a wrong marker is unsound already.
            if bytes.count - offset >= 4,
                bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != frameMarker.littleEndian
            {
                return .unsound(.marker, end: nil)
            }
            return .incomplete
        }
        let marker = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        let rawLength = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        let checksum = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
        guard marker == frameMarker else { return .unsound(.marker, end: nil) }
        guard rawLength > 0, rawLength <= UInt32(maxRecordBytes) else { return .unsound(.length(rawLength), end: nil) }
        let length = Int(rawLength)
        let start = offset + frameHeaderBytes
        guard bytes.count - start >= length else { return .incomplete }
        let record = UnsafeRawBufferPointer(rebasing: bytes[start..<start + length])
        guard CRC32.checksum(record) == checksum else { return .unsound(.checksum, end: nil) }
        if let flaw = violationFlaw(record) { return .unsound(flaw, end: start + length) }
        return .sound(record, end: start + length)
    }

    /// What keeps `record` from being one sound violation record, or nil when it is one: exactly
    /// one violation record, whose times are in range (`timeFlaw`).
    static func violationFlaw(_ record: UnsafeRawBufferPointer) -> Flaw? {
        var reader = OutboundBatchReader(record)
        guard case .violation(_, _, let columns)? = reader.next(), reader.offset == record.count else { return .record }
        return timeFlaw(columns)
    }

    /// The time of `columns` outside `EventTime.minMs...EventTime.maxMs` (the decoder's bound on
    /// `ts`, which the daemon's clock keeps `observed` inside too), or nil when both are in it.
    static func timeFlaw(_ columns: OutboundBatchReader.ViolationColumns) -> Flaw? {
        let range = EventTime.minMs...EventTime.maxMs
        if !range.contains(columns.ts) { return .time(field: "ts", value: columns.ts) }
        if !range.contains(columns.observed) { return .time(field: "observed", value: columns.observed) }
        return nil
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
