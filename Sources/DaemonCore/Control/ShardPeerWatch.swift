import ControlProtocol
import Logging
import ShardRouting
import ZeroMQ

/// On the control thread, never on the ingest thread: asks each daemon of `shard.peers` for
/// its `status` every ``intervalMs`` over a `DEALER` socket of its own (so a peer that does
/// not answer holds nothing), compares the shards of this daemon and of the peers that
/// answered lately, and keeps what `status` reports: the daemons that own some of the same
/// buckets (`shard_conflicts`) and the buckets no answering daemon owns (`buckets_uncovered`).
/// A change is one log line. A peer whose reply names this daemon's own control endpoint is
/// this daemon (one configuration file may list every daemon) and is left out.
final class ShardPeerWatch {
    /// How often each peer is asked.
    static let intervalMs: Int64 = 2000
    /// A peer that has not answered for this long counts as gone (its buckets uncovered).
    static let silenceMs: Int64 = 3 * intervalMs

    private struct Peer {
        let endpoint: String
        let socket: ZMQSocket
        var pollIndex = -1
        var shard: ShardAssignment?
        var lastAnswerMs: Int64?
        var isSelf = false
    }

    private let own: ShardAssignment?
    private let ownEndpoint: String
    private let logger: Logger
    private let startedMs: Int64
    private var peers: [Peer] = []
    private var nextAskMs: Int64 = 0
    private var lastWarnings: [String] = []
    /// What `status` reports; nil until the peers had time to answer once.
    private(set) var coverage: ShardCoverage?

    /// Connects a `DEALER` to each peer (in `context`, for this thread); a peer that cannot be
    /// connected is one log line and left out. `ownEndpoint` is this daemon's control endpoint.
    init(
        context: ZMQContext,
        own: ShardAssignment?,
        ownEndpoint: String,
        peers endpoints: [String],
        logger: Logger,
        nowMs: Int64
    ) {
        self.own = own
        self.ownEndpoint = ownEndpoint
        self.logger = logger
        startedMs = nowMs
        for endpoint in endpoints where endpoint != ownEndpoint {
            do {
                let socket = try ZMQSocket(context, type: .dealer, linger: 0)
                do {
                    try socket.set(.sendHighWaterMark, 4)
                    try socket.connect(endpoint)
                } catch {
                    socket.close()
                    throw error
                }
                peers.append(Peer(endpoint: endpoint, socket: socket))
            } catch {
                logger.warning(
                    "shard peer left out: cannot connect",
                    metadata: ["peer": "\(endpoint)", "error": "\(error)"]
                )
            }
        }
    }

    /// Whether there is any peer to ask.
    var isEmpty: Bool { peers.isEmpty }

    /// Adds every peer's socket to `poller`.
    func add(to poller: ZMQPoller) throws(ZMQError) {
        for i in peers.indices { peers[i].pollIndex = try poller.add(peers[i].socket) }
    }

    /// Reads the replies `poller` found, asks again when due, and compares the shards.
    func turn(_ poller: ZMQPoller, nowMs: Int64) {
        for i in peers.indices where peers[i].pollIndex >= 0 && poller.isReadable(peers[i].pollIndex) {
            while let reply = try? peers[i].socket.receiveMultipart(maxFrames: 2, dontWait: true) {
                guard reply.frames.count == 2,
                    let status = try? ControlReply.decode(reply.frames[1], as: StatusReply.self)
                else { continue }
                peers[i].isSelf = status.endpoints["control"]?.contains(ownEndpoint) ?? false
                peers[i].shard = status.shard.flatMap {
                    ShardAssignment(index: $0.index, count: $0.count, key: ShardKey(rawValue: $0.key) ?? .app)
                }
                peers[i].lastAnswerMs = nowMs
            }
        }
        guard nowMs >= nextAskMs else { return }
        nextAskMs = nowMs + Self.intervalMs
        let request = StatusRequest().encoded()
        for peer in peers where !peer.isSelf {
            _ = try? peer.socket.sendMultipart([[], request], dontWait: true)
        }
        // The first comparison once every peer had time to answer.
        if nowMs - startedMs >= Self.silenceMs { compare(nowMs: nowMs) }
    }

    private func compare(nowMs: Int64) {
        var members = [ShardCoverage.Member(name: ownEndpoint, shard: own)]
        var silent: [String] = []
        for peer in peers where !peer.isSelf {
            if let last = peer.lastAnswerMs, nowMs - last <= Self.silenceMs {
                members.append(ShardCoverage.Member(name: peer.endpoint, shard: peer.shard))
            } else {
                silent.append(peer.endpoint)
            }
        }
        let coverage = ShardCoverage(members)
        self.coverage = coverage
        let warnings =
            coverage.warnings + (silent.isEmpty ? [] : ["shard peers not answering: \(silent.joined(separator: ", "))"])
        guard warnings != lastWarnings else { return }
        lastWarnings = warnings
        if warnings.isEmpty {
            logger.notice("shard coverage: every bucket has one owner", metadata: ["peers": "\(members.count - 1)"])
        } else {
            logger.warning(
                "shard coverage: \(warnings.joined(separator: "; "))",
                metadata: [
                    "shard_conflicts": "\(coverage.overlaps.count)", "buckets_uncovered": "\(coverage.uncovered)",
                ]
            )
        }
    }

    /// Puts the comparison in `reply`.
    func fill(_ reply: inout StatusReply) {
        guard let coverage else { return }
        reply.shardConflicts = coverage.overlaps.map {
            StatusReply.ShardConflict(daemons: $0.daemons, buckets: $0.buckets)
        }
        reply.bucketsUncovered = coverage.uncovered
    }

    /// Closes every socket (on the control thread).
    func close() {
        for peer in peers { peer.socket.close() }
    }
}

@available(*, unavailable)
extension ShardPeerWatch: Sendable {}
