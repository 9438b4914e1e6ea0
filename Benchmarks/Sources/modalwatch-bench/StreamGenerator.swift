import Foundation

/// The bench's streams, as `bench/generate_stream.py` writes them: the bench runs the script and
/// reads its NDJSON, so that the bench, the scripts and the tests measure the same bytes.
struct StreamGenerator {
    /// The script's `--profile`.
    enum Profile: String, CaseIterable, Sendable {
        /// Presentations at random: about one event in four raises a violation.
        case stress
        /// A well-behaved app: presentations only where the guidelines allow them, and
        /// about 1 % of events an alert titled "Error" (one violation each).
        case clean
    }

    /// The event time of the script's first session (its `t0`).
    static let t0 = 1_732_290_000_000

    /// `bench/generate_stream.py`.
    let script: String
    /// Events to write.
    let events: Int
    /// Concurrent sessions.
    let sessions: Int
    /// The script's `--seed`.
    let seed: UInt32
    /// The script's `--profile`.
    var profile: Profile = .stress

    /// The generator of the repository at `root`.
    init(root: String, events: Int, sessions: Int, seed: UInt32, profile: Profile = .stress) {
        self.script = root + "/bench/generate_stream.py"
        self.events = events
        self.sessions = sessions
        self.seed = seed
        self.profile = profile
    }

    /// Runs the script and reads its stream.
    func generate() throws -> EventStream {
        let arguments = [
            "python3", script, "--events", "\(events)", "--sessions", "\(sessions)", "--seed", "\(seed)", "--profile",
            profile.rawValue,
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            throw BenchError("cannot start \(arguments.joined(separator: " ")): \(error.localizedDescription)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BenchError("\(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return EventStream(ndjson: [UInt8](data))
    }
}
