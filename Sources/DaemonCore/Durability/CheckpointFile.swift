import Foundation
import Posix
import SessionEngine

/// The session checkpoint in the state directory, `sessions.checkpoint`: every live session's
/// state and the apps' rule state, replaced atomically every `checkpoint_interval` while the
/// daemon runs (`CheckpointWriter`) and at a graceful stop, and read back at the start after
/// any end. A damaged one is moved aside (`PATH.damaged`). A snapshot file,
/// `sessions.snapshot` (one binary session snapshot), is read once when there is no
/// checkpoint, and removed.
///
/// The format: a 16-byte header (magic `MWCK`, format version as UInt32, the wall-clock ms the
/// checkpoint's walk began as Int64, little-endian), then frames, each a kind byte and a payload
/// length (UInt64, little-endian) before its payload: parts (kind 1), each a binary session
/// snapshot of some of the sessions (`EngineSnapshot+Binary`, with its own checksum), the last
/// part with the apps' rule state; then one end frame (kind 2) whose payload is the number of
/// sessions in the parts (UInt64). Nothing may follow it.
struct CheckpointFile {
    /// The checkpoint's file name.
    static let fileName = "sessions.checkpoint"
    /// The file of one binary session snapshot, read once when there is no checkpoint.
    static let legacyFileName = "sessions.snapshot"
    /// The magic bytes a checkpoint starts with.
    static let magic: [UInt8] = Array("MWCK".utf8)
    /// The format's version.
    static let formatVersion: UInt32 = 1
    /// Bytes before the first frame.
    static let headerSize = 16
    /// Bytes before a frame's payload: its kind and length.
    static let frameHeaderSize = 9

    /// The kinds of frame.
    enum FrameKind: UInt8 {
        /// A binary session snapshot of some of the sessions.
        case part = 1
        /// The end: the number of sessions in the parts.
        case end = 2
    }

    /// A checkpoint read back.
    struct Restored {
        /// Every session and app it holds.
        var snapshot: EngineSnapshot
        /// When its walk began (wall-clock ms).
        var writtenAtMs: Int64
        /// The file it came from.
        var path: String
    }

    /// The checkpoint's path.
    let path: String
    /// Where the walk's frames go until the end frame makes the file whole (`CheckpointWriter`).
    let partialPath: String
    let legacyPath: String

    init(directory: String) {
        path = directory + "/" + Self.fileName
        partialPath = path + ".partial"
        legacyPath = directory + "/" + Self.legacyFileName
    }

    /// The header of a checkpoint whose walk began at `writtenAtMs`.
    static func header(writtenAtMs: Int64) -> [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: formatVersion.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: writtenAtMs.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A frame's kind and length, the bytes before its payload.
    static func frameHeader(_ kind: FrameKind, length: Int) -> [UInt8] {
        var bytes = [kind.rawValue]
        withUnsafeBytes(of: UInt64(length).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The end frame of a checkpoint of `sessions` sessions.
    static func endFrame(sessions: Int) -> [UInt8] {
        var bytes = frameHeader(.end, length: 8)
        withUnsafeBytes(of: UInt64(sessions).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A whole checkpoint of `snapshot` in one part (the graceful stop's).
    static func encoded(_ snapshot: EngineSnapshot, writtenAtMs: Int64) -> [UInt8] {
        let part = snapshot.binaryEncoded()
        var bytes = header(writtenAtMs: writtenAtMs)
        bytes.reserveCapacity(headerSize + frameHeaderSize * 2 + part.count + 8)
        bytes += frameHeader(.part, length: part.count)
        bytes += part
        bytes += endFrame(sessions: snapshot.sessionCount)
        return bytes
    }

    /// Reads a checkpoint, checking its header, every part (and its checksum), the end frame
    /// and its count.
    static func decode(
        _ bytes: UnsafeRawBufferPointer
    ) throws(SnapshotFormatError) -> (snapshot: EngineSnapshot, writtenAtMs: Int64) {
        guard bytes.count >= 4, bytes.prefix(4).elementsEqual(magic) else { throw .notASnapshot }
        guard bytes.count >= headerSize else { throw .truncated(offset: bytes.count) }
        let version = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        guard version == formatVersion else { throw .unsupportedVersion(version) }
        let writtenAtMs = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: Int64.self))
        var parts: [EngineSnapshot] = []
        var offset = headerSize
        while true {
            guard bytes.count - offset >= frameHeaderSize else { throw .truncated(offset: bytes.count) }
            let rawKind = bytes[offset]
            let length = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self))
            let start = offset + frameHeaderSize
            guard length <= UInt64(bytes.count - start) else { throw .truncated(offset: bytes.count) }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(length))])
            switch FrameKind(rawValue: rawKind) {
            case .part:
                do {
                    parts.append(try EngineSnapshot.decodeBinary(payload))
                } catch .truncated(let at) {
                    throw .malformed("a part that ends early", offset: start + at)
                }
            case .end:
                guard length == 8 else { throw .malformed("an end frame of \(length) bytes", offset: offset) }
                guard start + 8 == bytes.count else { throw .malformed("bytes after the end frame", offset: start + 8) }
                let count = UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self))
                let found = parts.reduce(0) { $0 + $1.sessionCount }
                guard count == UInt64(found) else {
                    throw .malformed("the end frame counts \(count) sessions, the parts hold \(found)", offset: offset)
                }
                return (EngineSnapshot.merged(parts), writtenAtMs)
            case nil:
                throw .malformed("a frame of unknown kind \(rawKind)", offset: offset)
            }
            offset = start + Int(length)
        }
    }

    /// Opens the checkpoint's folder and temporary file now, so that the graceful stop's write
    /// needs no descriptor, even when the process has none left.
    func reserve() throws(PosixError) -> ReservedFile {
        try ReservedFile(path: path)
    }

    /// Writes the whole checkpoint of `snapshot` atomically, through `reserved`'s descriptors
    /// (opened at the start) when there are some. Returns the bytes written.
    @discardableResult
    func write(_ snapshot: EngineSnapshot, writtenAtMs: Int64, into reserved: ReservedFile?) throws(PosixError) -> Int {
        let bytes = Self.encoded(snapshot, writtenAtMs: writtenAtMs)
        if let reserved {
            try reserved.write(bytes)
        } else {
            try AtomicFile.write(bytes, to: path)
        }
        return bytes.count
    }

    /// The newest checkpoint, or the snapshot file when there is none (which is then
    /// removed); nil when there is neither. A damaged file is moved aside (`PATH.damaged`) and
    /// its error thrown, so that the next checkpoint starts clean.
    func read() throws -> Restored? {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let (snapshot, writtenAtMs) = try decodeOrSetAside(path) { () throws -> (EngineSnapshot, Int64) in
                try data.withUnsafeBytes { bytes throws -> (EngineSnapshot, Int64) in try Self.decode(bytes) }
            }
            try? manager.removeItem(atPath: legacyPath)
            return Restored(snapshot: snapshot, writtenAtMs: writtenAtMs, path: path)
        }
        guard manager.fileExists(atPath: legacyPath) else { return nil }
        defer { try? manager.removeItem(atPath: legacyPath) }
        let data = try Data(contentsOf: URL(fileURLWithPath: legacyPath))
        let modified = (try? manager.attributesOfItem(atPath: legacyPath)[.modificationDate] as? Date) ?? nil
        let snapshot = try decodeOrSetAside(legacyPath) { () throws -> EngineSnapshot in
            try data.withUnsafeBytes { bytes throws -> EngineSnapshot in try EngineSnapshot.decodeBinary(bytes) }
        }
        return Restored(
            snapshot: snapshot,
            writtenAtMs: modified.map { Int64($0.timeIntervalSince1970 * 1000) } ?? 0,
            path: legacyPath
        )
    }

    /// `decode()`, or the file moved aside (`FILE.damaged`) and the error thrown.
    private func decodeOrSetAside<Decoded>(_ file: String, _ decode: () throws -> Decoded) throws -> Decoded {
        do {
            return try decode()
        } catch {
            try? FileManager.default.removeItem(atPath: file + ".damaged")
            try? FileManager.default.moveItem(atPath: file, toPath: file + ".damaged")
            throw error
        }
    }
}
