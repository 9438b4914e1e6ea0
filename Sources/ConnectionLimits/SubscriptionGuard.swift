import ByteBasics
public import Logging
import Posix
public import ZeroMQ

/// Bounds the subscriptions an `XPUB` socket holds (the daemon's publish socket, the forwarder's
/// backend), per peer and in total, so that no subscriber can grow the process's memory through
/// that port with many distinct short subscriptions (each within `ZMQ_MAXMSGSIZE`): libzmq's
/// subscription trie has no bound of its own. Made on the socket's thread and confined to it,
/// with the socket it reads.
///
/// The socket is an `XPUB` with `ZMQ_XPUB_VERBOSER`: libzmq applies every subscription
/// itself and passes each one up, with the connection's metadata (its descriptor,
/// `ZMQ_SRCFD`, and its `Peer-Address`). This mirrors what each connection holds and, past a
/// bound, refuses: the subscription is not kept here, it is counted (``Event/refused``,
/// `subscriptions_refused`) and the connection is shut down (`shutdown(2)`, never `close`: libzmq sees the connection
/// end, closes the descriptor and drops everything that connection subscribed). Ending the
/// connection is the only way libzmq frees a peer's subscriptions: even with `ZMQ_XPUB_MANUAL`
/// it records every subscription it receives, applied or not, until the peer unsubscribes or
/// goes (docs/RELIABILITY.md, "Subscriptions").
///
/// A peer is one connection, told apart soundly although descriptors are reused: every frame
/// of a connection points to the same metadata (`ZMQMessage.connectionIdentity`), and a copy of
/// one frame is held for as long as the connection's entry lives, so no later connection can
/// have the same. libzmq queues every frame of a connection before any of a later connection on
/// the same descriptor (the later one exists only after the first closed the descriptor, and
/// libzmq's commands keep their order), so a new identity on a descriptor means the old
/// connection has said everything and its entry goes. An entry also goes once its socket is no
/// longer there (its `SO_COOKIE`, read when the entry is made, checked once a second).
///
/// What it keeps and lets go of is told to the caller of ``serve(_:_:)`` as ``Event``s: a
/// forwarder passes upstream exactly the subscriptions kept and their ends, so that what it
/// subscribed to upstream is what its peers hold within the bounds. libzmq's own unsubscriptions
/// for a connection that ended carry no connection and are not told; the guard tells, instead,
/// the end of every subscription the connection's entry held when the entry goes.
public final class SubscriptionGuard {
    /// The bounds; see `defaults`.
    public struct Limits: Sendable, Equatable {
        /// Most subscriptions one connection holds.
        public var perPeerCount: Int
        /// Most topic bytes one connection's subscriptions hold.
        public var perPeerBytes: Int
        /// Most subscriptions all connections hold together.
        public var totalCount: Int
        /// Most topic bytes all connections' subscriptions hold together.
        public var totalBytes: Int

        /// Bounds of `perPeerCount` subscriptions and `perPeerBytes` topic bytes a connection,
        /// `totalCount` and `totalBytes` in all.
        public init(perPeerCount: Int, perPeerBytes: Int, totalCount: Int, totalBytes: Int) {
            self.perPeerCount = perPeerCount
            self.perPeerBytes = perPeerBytes
            self.totalCount = totalCount
            self.totalBytes = totalBytes
        }

        /// A subscriber subscribes to a handful of `violation/<app>/` prefixes (or to everything,
        /// `""`); a forwarder to the union of its subscribers'. 1,024 a connection, 65,536 and
        /// 16 MiB in all: libzmq's trie then holds a few MiB at most (200,000 short subscriptions
        /// take it ~45 MiB).
        public static let defaults = Limits(
            perPeerCount: 1_024,
            perPeerBytes: 256 << 10,
            totalCount: 65_536,
            totalBytes: 16 << 20
        )
    }

    /// What ``serve(_:_:)`` tells its caller, one subscription at a time.
    public enum Event: Sendable {
        /// A connection subscribed to the topic, within the bounds, and held no such subscription
        /// before: the guard keeps it (a forwarder subscribes upstream).
        case kept(topic: [UInt8])
        /// A subscription the guard kept ended: its connection unsubscribed, or the connection is
        /// gone (a forwarder unsubscribes upstream).
        case released(topic: [UInt8])
        /// A subscription past a bound (or of a connection already past one) was refused: counted,
        /// and the connection shut down.
        case refused
    }

    /// What one connection holds.
    private final class Peer {
        /// `ZMQMessage.connectionIdentity` of the connection's frames.
        let identity: UInt
        /// A frame of the connection, held so that `identity` stays its own.
        let held: ZMQMessage
        /// The connection's `Peer-Address`, for log lines.
        let address: String
        /// The socket's `SO_COOKIE` when the entry was made, or nil when the descriptor was no
        /// longer this connection's then (the connection is gone).
        let cookie: UInt64?
        /// The topics the connection subscribed to and this kept.
        var topics: Set<[UInt8]> = []
        /// The bytes of `topics`.
        var bytes = 0
        /// Whether a subscription was refused: the connection is shut down, and refuses every later one.
        var refusing = false

        init(identity: UInt, held: consuming ZMQMessage, address: String, cookie: UInt64?) {
            self.identity = identity
            self.held = held
            self.address = address
            self.cookie = cookie
        }
    }

    /// Most frames one ``serve(_:_:)`` reads: the socket's thread does its other work between them.
    public static let maxFramesPerServe = 4_096
    /// How often entries whose socket is gone are looked for.
    public static let sweepIntervalMs: Int64 = 1_000

    /// The bounds in force.
    public let limits: Limits
    /// The socket guarded (`publish`, `forward-backend`), in log lines.
    public let name: String
    private let logger: Logger
    /// The socket's TCP port (a connection's socket must be on it), or nil for `ipc://`.
    private let tcpPort: UInt16?
    /// The connections that subscribed, by descriptor.
    private var peers: [Int32: Peer] = [:]
    /// Subscriptions kept, all connections together.
    public private(set) var totalCount = 0
    /// Topic bytes kept, all connections together.
    public private(set) var totalBytes = 0
    /// Subscriptions refused (past a bound, or of a connection already past one) since the guard was made.
    public private(set) var refused: UInt64 = 0
    /// Frames read from the socket (subscriptions, unsubscriptions and anything else) since the guard was made.
    public private(set) var framesRead: UInt64 = 0
    /// The bytes of those frames.
    public private(set) var bytesRead: UInt64 = 0
    private var frame = ZMQMessage()
    private var lastSweepMs = PosixClock.monotonic.milliseconds()
    /// An unsubscription of no connection came (libzmq's, for a connection that ended): sweep now.
    private var sweepSoon = false
    private var lastWarningMs: Int64 = .min

    /// Guards the subscriptions of the socket `name` bound to `boundEndpoint` (an `XPUB` with
    /// `ZMQ_XPUB_VERBOSER`).
    public init(limits: Limits = .defaults, name: String, boundEndpoint: String, logger: Logger) {
        self.limits = limits
        self.name = name
        self.logger = logger
        if boundEndpoint.hasPrefix("tcp://"), let colon = boundEndpoint.lastIndex(of: ":") {
            tcpPort = UInt16(boundEndpoint[boundEndpoint.index(after: colon)...])
        } else {
            tcpPort = nil
        }
    }

    /// Connections with an entry now.
    public var peerCount: Int { peers.count }

    /// Reads the (un)subscriptions waiting on `socket`, never blocking, at most `maxFramesPerServe`,
    /// and tells `tell` what it kept, released and refused; whether that many were read (more may
    /// wait). Call it every turn: libzmq queues them without a bound as it takes them from the
    /// connections, which it does whenever the socket is used.
    @discardableResult
    public func serve(_ socket: ZMQSocket, _ tell: (Event) -> Void) -> Bool {
        var frames = 0
        while frames < Self.maxFramesPerServe {
            do {
                guard try socket.receive(into: &frame, dontWait: true) else { break }
            } catch {
                logger.warning(
                    "a socket's subscriptions are unreadable",
                    metadata: ["socket": "\(name)", "error": "\(error)"]
                )
                break
            }
            frames += 1
            framesRead += 1
            bytesRead += UInt64(frame.count)
            take(tell)
        }
        sweepIfDue(tell)
        return frames == Self.maxFramesPerServe
    }

    /// One frame: a subscription (1, then the topic) or an unsubscription (0, then the topic);
    /// anything else (a message an `XSUB` peer sent) is dropped.
    private func take(_ tell: (Event) -> Void) {
        let (kind, topic): (UInt8?, [UInt8]) = frame.withBytes { bytes in
            guard let first = bytes.first, first <= 1 else { return (nil, []) }
            return (first, Array(bytes.dropFirst()))
        }
        guard let kind else { return }
        guard let descriptor = frame.sourceDescriptor, let identity = frame.connectionIdentity else {
            // No connection of its own: libzmq's unsubscriptions for a connection that ended, or
            // an `inproc://` peer (in the process; not bounded).
            if kind == 0 { sweepSoon = true }
            return
        }
        let peer = self.peer(descriptor, identity, tell)
        if kind == 0 {
            guard peer.topics.remove(topic) != nil else { return }
            peer.bytes -= topic.count
            totalCount -= 1
            totalBytes -= topic.count
            tell(.released(topic: topic))
            return
        }
        guard !peer.topics.contains(topic) else { return }
        if peer.refusing {
            refuse(peer, descriptor: descriptor, bound: nil)
            tell(.refused)
            return
        }
        if let bound = boundPassed(by: peer, adding: topic.count) {
            refuse(peer, descriptor: descriptor, bound: bound)
            tell(.refused)
            return
        }
        peer.topics.insert(topic)
        peer.bytes += topic.count
        totalCount += 1
        totalBytes += topic.count
        tell(.kept(topic: topic))
    }

    /// The bound one more subscription of `bytes` topic bytes from `peer` would pass, or nil.
    private func boundPassed(by peer: Peer, adding bytes: Int) -> String? {
        if peer.topics.count >= limits.perPeerCount { return "subscriptions per connection" }
        if peer.bytes + bytes > limits.perPeerBytes { return "subscription bytes per connection" }
        if totalCount >= limits.totalCount { return "subscriptions in all" }
        if totalBytes + bytes > limits.totalBytes { return "subscription bytes in all" }
        return nil
    }

    /// The entry of the connection on `descriptor` with `identity`, made if new; an entry of
    /// another identity on the same descriptor is an earlier connection that has said everything.
    private func peer(_ descriptor: Int32, _ identity: UInt, _ tell: (Event) -> Void) -> Peer {
        if let peer = peers[descriptor] {
            if peer.identity == identity { return peer }
            forget(descriptor, peer, tell)
        }
        let address = frame.peerAddress ?? "?"
        // The socket on the descriptor is this connection's when it is on the socket's port with
        // this peer (else the descriptor was closed, maybe reused, since this frame came).
        let onPort = tcpPort.map { Posix.localTCPPort(ofForeign: descriptor) == $0 } ?? true
        let cookie =
            onPort && Posix.peerAddress(ofForeign: descriptor) == address
            ? Posix.socketCookie(ofForeign: descriptor) : nil
        let peer = Peer(identity: identity, held: frame.copy(), address: address, cookie: cookie)
        peers[descriptor] = peer
        return peer
    }

    /// Refuses a subscription of `peer`: counted, and its connection shut down (once), which
    /// frees what libzmq holds for it. `bound`: the bound it is past, nil when already refusing.
    private func refuse(_ peer: Peer, descriptor: Int32, bound: String?) {
        refused += 1
        guard let bound else { return }
        peer.refusing = true
        // Still the socket the entry was made for (its cookie), not a descriptor reused meanwhile.
        var shut = false
        if let cookie = peer.cookie, Posix.socketCookie(ofForeign: descriptor) == cookie {
            shut = Posix.shutdownForeign(descriptor)
        }
        let now = PosixClock.monotonic.milliseconds()
        guard lastWarningMs == .min || now - lastWarningMs >= 10_000 else { return }
        lastWarningMs = now
        logger.warning(
            "a subscriber is past a bound of a socket; its subscriptions are refused and its connection shut down",
            metadata: [
                "socket": "\(name)", "peer": "\(peer.address)", "bound": "\(bound)", "shut_down": "\(shut)",
                "per_connection": "\(limits.perPeerCount) subscriptions, \(limits.perPeerBytes) bytes",
                "in_all": "\(limits.totalCount) subscriptions, \(limits.totalBytes) bytes",
                "subscriptions_refused": "\(refused)",
            ]
        )
    }

    /// Drops the entries whose socket is gone, once a second and soon after libzmq said a
    /// connection ended.
    private func sweepIfDue(_ tell: (Event) -> Void) {
        let now = PosixClock.monotonic.milliseconds()
        guard sweepSoon || now - lastSweepMs >= Self.sweepIntervalMs else { return }
        sweepSoon = false
        lastSweepMs = now
        for (descriptor, peer) in peers {
            guard let cookie = peer.cookie, Posix.socketCookie(ofForeign: descriptor) == cookie else {
                forget(descriptor, peer, tell)
                continue
            }
        }
    }

    /// Drops the entry of a connection that is gone; every subscription it held ends.
    private func forget(_ descriptor: Int32, _ peer: Peer, _ tell: (Event) -> Void) {
        peers[descriptor] = nil
        totalCount -= peer.topics.count
        totalBytes -= peer.bytes
        for topic in peer.topics { tell(.released(topic: topic)) }
    }
}

@available(*, unavailable)
extension SubscriptionGuard: Sendable {}
