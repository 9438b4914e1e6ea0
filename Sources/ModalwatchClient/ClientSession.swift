import ByteBasics
public import ShardRouting
import Synchronization

/// One app session: its id, and the `seq` and `ts` of its events, kept for the caller.
/// Safe to use from several threads: each event takes the next `seq` and is queued in
/// that order, and `ts` never goes back.
public final class ClientSession: Sendable {
    /// The session id.
    public let id: String
    /// The app's bundle id.
    public let app: String
    /// The bucket the session's events go to.
    public let bucket: ShardBucket
    private let client: ModalwatchClient
    private let state = Mutex<(seq: Int64, lastTs: Int64, ended: Bool)>((0, 0, false))

    init(client: ModalwatchClient, app: String, id: String) {
        self.client = client
        self.app = app
        self.id = id
        bucket = client.bucket(app: app, session: id)
    }

    /// A random session id: 32 hex digits.
    static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            var value = generator.next() as UInt64
            for _ in 0..<16 {
                bytes.append(digits[Int(value & 15)])
                value >>= 4
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func start(appVersion: String?, os: String?, device: Device?, sizeClass: SizeClass?, locale: String?, at ts: Int64?)
    {
        record(at: ts) { seq, ts in
            EventEncoder.sessionStart(
                session: id,
                app: app,
                ts: ts,
                seq: seq,
                appVersion: appVersion,
                os: os,
                device: device,
                sizeClass: sizeClass,
                locale: locale
            )
        }
    }

    /// Queues one event of this session. `ts` (ms since the epoch) defaults to now; an
    /// earlier time than the session's last is raised to it. Returns false when the event
    /// was dropped (queue full, counted) or the session has ended.
    @discardableResult
    public func send(_ event: ClientEvent, at ts: Int64? = nil) -> Bool {
        record(at: ts) { seq, ts in EventEncoder.encode(event, session: id, app: app, ts: ts, seq: seq) }
    }

    /// Sends `session.end`; later events are refused.
    @discardableResult
    public func end(at ts: Int64? = nil) -> Bool {
        let sent = record(at: ts) { seq, ts in EventEncoder.sessionEnd(session: id, app: app, ts: ts, seq: seq) }
        state.withLock { $0.ended = true }
        return sent
    }

    /// The `seq` of the last event queued.
    public var lastSeq: Int64 { state.withLock { $0.seq } }

    @discardableResult
    private func record(at ts: Int64?, _ encode: (Int64, Int64) -> [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.ended else { return false }
            let time = max(ts ?? PosixClock.realtime.milliseconds(), state.lastTs)
            // A dropped event still takes its seq: the daemon then counts it as lost (a gap).
            state.seq += 1
            state.lastTs = time
            let bytes = encode(state.seq, time)
            return client.enqueue(PendingEvent(bucket: bucket, app: app, session: id, bytes: bytes))
        }
    }
}
