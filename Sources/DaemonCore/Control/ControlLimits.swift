import Glibc

/// The control socket's bounds (docs/RELIABILITY.md, "Hostile control clients"): queues per
/// peer, the size of a request, and memory given back after large replies.
enum ControlLimits {
    /// Replies queued for one peer at most (ZMQ_SNDHWM); a peer that does not read loses the rest.
    static let repliesQueuedPerPeer: Int32 = 4
    /// Requests queued from one peer at most (ZMQ_RCVHWM).
    static let requestsQueuedPerPeer: Int32 = 4
    /// The largest request (ZMQ_MAXMSGSIZE); a larger one drops the peer's connection. Well above
    /// any real request, so that a malformed one of some size still gets its error reply.
    static let maxRequestBytes: Int64 = 256 << 10
    /// A reply at least this large is followed, within a second, by `malloc_trim(0)`.
    static let largeReplyBytes = 64 << 10
    /// Whatever happened, the heap is trimmed at least this often: bursts elsewhere (a store
    /// outage's spool, a stalled subscriber catching up) free memory the allocator would keep.
    static let idleTrimIntervalMs: Int64 = 2_000
}

/// Gives memory back to the system after large control replies: the allocator keeps freed
/// reply buffers otherwise, and a burst of big requests would stay in RSS for good. It also
/// trims every `ControlLimits.idleTrimIntervalMs`, because glibc keeps what any thread freed
/// (the store's spool after an outage, libzmq's queue for a subscriber that caught up); the
/// trim walks every arena, so it runs here and never on the ingest thread. Owned by the
/// control thread; `trimIfDue` runs after each poll (at least once a second).
struct MemoryTrimmer {
    private var pending = false
    private var lastTrimMs: Int64 = 0

    /// Notes a reply of `bytes`.
    mutating func noteReply(bytes: Int) {
        if bytes >= ControlLimits.largeReplyBytes { pending = true }
    }

    /// Trims the heap if a large reply went out since the last trim and a second has passed,
    /// or if the last trim is `ControlLimits.idleTrimIntervalMs` old.
    mutating func trimIfDue(now: Int64) {
        let elapsed = now - lastTrimMs
        guard (pending && elapsed >= 1000) || elapsed >= ControlLimits.idleTrimIntervalMs else { return }
        pending = false
        lastTrimMs = now
        _ = glibcMallocTrim(0)
    }
}

/// glibc's `malloc_trim(3)` (its header, malloc.h, is not in the Glibc module).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
