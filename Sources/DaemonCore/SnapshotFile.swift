import Foundation
import Posix
import SessionEngine

/// The session snapshot in the state directory: written atomically on a
/// graceful stop, read and removed on start (so a crash never restores a stale one).
struct SnapshotFile {
    static let fileName = "sessions.snapshot.json"

    let path: String

    init(directory: String) {
        path = directory + "/" + Self.fileName
    }

    /// Writes `snapshot` atomically: a temporary file, synced, renamed into place, the folder synced.
    func write(_ snapshot: EngineSnapshot) throws {
        let data = try JSONEncoder().encode(snapshot)
        try data.withUnsafeBytes { try AtomicFile.write($0, to: path) }
    }

    /// The snapshot, if there is one; a damaged one is moved aside and reported.
    func take() throws -> EngineSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            return try JSONDecoder().decode(EngineSnapshot.self, from: data)
        } catch {
            try? FileManager.default.removeItem(atPath: path + ".damaged")
            try? FileManager.default.copyItem(atPath: path, toPath: path + ".damaged")
            throw error
        }
    }
}
