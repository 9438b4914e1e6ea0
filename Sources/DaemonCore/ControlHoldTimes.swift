import Posix

/// How long control requests held the ingest thread: from the request read to its reply
/// sent, parsing, answering and encoding included. The ingest thread owns it; `status`
/// reports the longest so far and the request that took it (issue 12: no control request
/// holds ingest for more than 1 ms).
struct ControlHoldTimes {
    /// The longest hold so far, in microseconds.
    private(set) var maxMicros: Int64 = 0
    /// The request of the longest hold: its `cmd`, or nil before the first request.
    private(set) var maxRequest: String?
    /// The longest hold of each request (`cmd`), in microseconds.
    private(set) var maxByRequest: [String: Int64] = [:]
    private var started: Int64 = 0

    /// Notes that a request was read.
    mutating func begin() {
        started = Posix.monotonicMicroseconds()
    }

    /// Notes that the reply to `request` (its `cmd`) went out; returns the hold in microseconds.
    @discardableResult
    mutating func end(request: [UInt8]) -> Int64 {
        let held = Posix.monotonicMicroseconds() - started
        let command = Self.command(of: request)
        if held > maxMicros || maxRequest == nil {
            maxMicros = max(held, maxMicros)
            maxRequest = command
        }
        // Bounded: only the commands the protocol knows get an entry of their own.
        let key = Self.commands.contains(command) ? command : "?"
        maxByRequest[key] = max(maxByRequest[key] ?? 0, held)
        return held
    }

    /// The control protocol's commands.
    private static let commands: Set<String> = ["status", "sessions", "session", "rules", "reload", "violations"]

    /// The value of the `"cmd"` field, found without parsing the whole request (at most its
    /// first 64 characters); "?" when there is none.
    static func command(of request: [UInt8]) -> String {
        let key = Array(#""cmd""#.utf8)
        guard let at = request.firstRange(of: key) else { return "?" }
        var index = at.upperBound
        while index < request.count, request[index] == UInt8(ascii: " ") || request[index] == UInt8(ascii: ":") { index += 1 }
        guard index < request.count, request[index] == UInt8(ascii: "\"") else { return "?" }
        let start = index + 1
        guard let end = request[start...].prefix(64).firstIndex(of: UInt8(ascii: "\"")) else { return "?" }
        return String(decoding: request[start..<end], as: UTF8.self)
    }
}
