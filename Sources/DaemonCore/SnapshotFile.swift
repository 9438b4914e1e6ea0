import Foundation
import Posix
import SessionEngine

/// The session snapshot in the state directory: written atomically on a graceful stop
/// in the binary format (`EngineSnapshot+Binary`), read and removed on start (so a crash
/// never restores a stale one). 0.1.0's snapshot (binary version 2) is read as well.
struct SnapshotFile {
    /// The snapshot's file name.
    static let fileName = "sessions.snapshot"

    let path: String

    init(directory: String) {
        path = directory + "/" + Self.fileName
    }

    /// Writes `snapshot` atomically: a temporary file, synced, renamed into place, the folder synced.
    /// Returns the bytes written.
    @discardableResult
    func write(_ snapshot: EngineSnapshot) throws -> Int {
        let bytes = snapshot.binaryEncoded()
        try AtomicFile.write(bytes, to: path)
        return bytes.count
    }

    /// Opens the snapshot's folder and temporary file now, so that `write(_:into:)` needs
    /// no descriptor at the stop, even when the process has none left.
    func reserve() throws(PosixError) -> ReservedFile {
        try ReservedFile(path: path)
    }

    /// Writes `snapshot` atomically through `reserved`'s descriptors (opened at the start);
    /// without them, as `write(_:)`. Returns the bytes written.
    @discardableResult
    func write(_ snapshot: EngineSnapshot, into reserved: ReservedFile?) throws -> Int {
        guard let reserved else { return try write(snapshot) }
        let bytes = snapshot.binaryEncoded()
        try reserved.write(bytes)
        return bytes.count
    }

    /// The snapshot, if there is one; a damaged one is moved aside (`PATH.damaged`) and its
    /// error thrown.
    func take() throws -> EngineSnapshot? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: path) else { return nil }
        defer { try? manager.removeItem(atPath: path) }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try decodeOrSetAside(path) { () throws -> EngineSnapshot in
            try data.withUnsafeBytes { bytes throws -> EngineSnapshot in try EngineSnapshot.decodeBinary(bytes) }
        }
    }

    private func decodeOrSetAside(_ file: String, _ decode: () throws -> EngineSnapshot) throws -> EngineSnapshot {
        do {
            return try decode()
        } catch {
            try? FileManager.default.removeItem(atPath: file + ".damaged")
            try? FileManager.default.copyItem(atPath: file, toPath: file + ".damaged")
            throw error
        }
    }
}
