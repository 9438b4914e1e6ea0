import Foundation

/// How long control requests hold the daemon's ingest thread with many live sessions:
/// `bench/control_hold.py` loads `live` sessions into a real daemon, then fires every request
/// the ingest thread works on, at its largest, for `seconds` while a steady stream flows, and
/// reads the daemon's own `control_hold_*` figures from `status`. Needs Python 3 with pyzmq.
struct ControlHoldBenchmark {
    /// The repository (for the script).
    let root: String
    /// The `modalwatchd` to measure (its modules beside it).
    let executable: String
    /// Where the script's output goes.
    let folder: String
    /// Live sessions while the requests run.
    let live: Int
    /// Seconds of requests and stream.
    let seconds: Double

    /// The longest turn of any request on the ingest thread, CPU and wall, and whether events were lost.
    struct Result {
        var longestCPUMicroseconds: Double
        var longestRequest: String
        var longestWallMicroseconds: Double
        var cpuByRequest: [String: Double]
        var streamEvents: Int
        var eventsReceived: Int
    }

    func run(registry: ChildRegistry) throws -> Result {
        let binaries = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        let command = HelperCommand(
            arguments: ["python3", "bench/control_hold.py", "--live", "\(live)", "--seconds", "\(seconds)"],
            environment: ["MODALWATCH_BIN_DIR": binaries],
            directory: root
        )
        let output = try command.run(registry: registry, log: folder + "/control-hold.log")
        // The script prints progress lines, then one indented JSON object.
        guard let start = output.range(of: "\n{")?.lowerBound ?? (output.hasPrefix("{") ? output.startIndex : nil),
            let object = try JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any]
        else {
            throw BenchError("bench/control_hold.py printed no result (see \(folder)/control-hold.log)")
        }
        func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
        guard let cpu = number("control_hold_cpu_max_us"), let wall = number("control_hold_max_us"),
            let sent = number("stream_events"), let received = number("events_received")
        else {
            throw BenchError(
                "bench/control_hold.py's result lacks control_hold_cpu_max_us, control_hold_max_us or the event counts"
            )
        }
        let byRequest = (object["control_hold_cpu_us_by_request"] as? [String: Any] ?? [:]).compactMapValues {
            ($0 as? NSNumber)?.doubleValue
        }
        let longest =
            byRequest.max { $0.value < $1.value }?.key ?? (object["control_hold_max_request"] as? String ?? "?")
        return Result(
            longestCPUMicroseconds: cpu,
            longestRequest: longest,
            longestWallMicroseconds: wall,
            cpuByRequest: byRequest,
            streamEvents: Int(sent),
            eventsReceived: Int(received)
        )
    }
}
