import ByteBasics
import ControlProtocol
import Foundation
import Posix

/// One look at the daemon for `top`: its status and its most recently active sessions,
/// with rates worked out against the look before.
struct TopSample {
    /// The `status` reply.
    let status: StatusReply
    /// The `sessions` reply's sessions, busiest first once ranked.
    private(set) var sessions: [SessionInfo]
    /// Events per second of each session seen in the look before, by id.
    private(set) var eventsPerSecond: [String: Double] = [:]
    /// Live sessions in all.
    let total: Int
    /// The daemon's wall clock (ms) when it answered.
    let now: Double
    /// When this sample was taken (monotonic seconds).
    let taken: Double
    /// Violations published per second since the sample before, if there was one.
    private(set) var violationsPerSecond: Double?
    /// Events received per second since the sample before, if there was one.
    private(set) var measuredEventsPerSecond: Double?
    /// The daemons that did not answer this look (several `--control`), by endpoint.
    var failures: [(endpoint: String, failure: ControlClient.Failure)] = []

    /// Sessions asked for each time: the most recently active, where the busy ones are.
    static let window = 200

    /// Asks the daemon; `previous` gives the rates.
    static func take(_ client: ControlClient, after previous: TopSample?) throws(ControlClient.Failure) -> TopSample {
        let status = try client.send(StatusRequest())
        let listing = try client.send(SessionsRequest(sort: .recent, limit: window))
        var sample = TopSample(
            status: status,
            sessions: listing.sessions,
            total: listing.total,
            now: Double(listing.now),
            taken: Self.monotonic(),
            violationsPerSecond: nil
        )
        sample.rank(after: previous)
        return sample
    }

    /// Asks every daemon of `fleet` and merges their looks (scale.md); fails only when none answers.
    static func take(_ fleet: DaemonFleet, after previous: TopSample?) throws(ControlClient.Failure) -> TopSample {
        if fleet.isSingle { return try take(fleet.clients[0], after: previous) }
        let statuses = fleet.gather(StatusRequest())
        let listings = fleet.gather(SessionsRequest(sort: .recent, limit: window))
        guard !statuses.answers.isEmpty, !listings.answers.isEmpty else {
            throw statuses.failures.first?.failure ?? listings.failures.first?.failure
                ?? .unreachable("no daemon answered")
        }
        let listing = FleetMerging.sessions(listings.answers.map(\.reply), sort: .recent, limit: window)
        var sample = TopSample(
            status: StatusReply.merged(statuses.answers.map(\.reply)),
            sessions: listing.sessions,
            total: listing.total,
            now: Double(listing.now),
            taken: Self.monotonic(),
            violationsPerSecond: nil
        )
        sample.failures = statuses.failures
        sample.rank(after: previous)
        return sample
    }

    /// Seconds on the monotonic clock.
    static func monotonic() -> Double { PosixClock.monotonic.fractionalSeconds() }

    /// Works out each session's events per second against the look before (those seen before,
    /// and those that started within the interval), and orders the sessions busiest first.
    private mutating func rank(after previous: TopSample?) {
        if let previous, taken > previous.taken {
            let seconds = taken - previous.taken
            var before: [String: Int] = [:]
            for s in previous.sessions { before[s.id] = s.events }
            for s in sessions {
                // A session not seen before started within the interval: all its events are new.
                eventsPerSecond[s.id] = Double(max(0, s.events - (before[s.id] ?? 0))) / seconds
            }
            violationsPerSecond =
                Double(max(0, status[.violationsPublished] - previous.status[.violationsPublished])) / seconds
            measuredEventsPerSecond =
                Double(max(0, status[.eventsReceived] - previous.status[.eventsReceived])) / seconds
        }
        let rates = eventsPerSecond
        func key(_ s: SessionInfo) -> (Double, Int) { (rates[s.id] ?? 0, s.events) }
        sessions.sort { key($0) > key($1) }
    }

    /// The sample as `top --json` prints it: the status reply as the daemon sent it, the
    /// sessions with their `events_per_second`, and the events and violations per second
    /// between this look and the one before, both measured alike (both null without a look before).
    var json: JSONValue {
        var statusObject = status.fields
        statusObject["ok"] = .bool(true)
        statusObject["v"] = .int(ModalwatchVersion.controlProtocol)
        let sessionObjects = sessions.map { s -> JSONValue in
            guard var object = s.json.objectValue else { return s.json }
            if let rate = eventsPerSecond[s.id] { object["events_per_second"] = .number(rate) }
            return .object(object)
        }
        return .object([
            "now": .number(now), "status": .object(statusObject), "sessions": .array(sessionObjects),
            "total": .int(total),
            "violations_per_second": violationsPerSecond.map(JSONValue.number) ?? .null,
            "events_per_second": measuredEventsPerSecond.map(JSONValue.number) ?? .null,
        ])
    }
}
