import Synchronization

/// The publishing thread's counters, read by `status` on the ingest thread.
final class PublishingStatistics: Sendable {
    /// Violations sent on the PUB socket.
    let violationsPublished = Atomic<UInt64>(0)
    /// Diagnostics sent on the PUB socket.
    let diagnosticsPublished = Atomic<UInt64>(0)
    /// Messages the PUB socket would not take at all (no subscriber got them).
    let messagesDropped = Atomic<UInt64>(0)
    /// Times a subscriber's queue was found full: it missed that message and, until it
    /// catches up, the ones after it (libzmq does not say how many).
    let subscriberOverflows = Atomic<UInt64>(0)
    /// Subscriptions the publish socket refused past a bound (`SubscriptionGuard`): each one
    /// from a connection past its bound, whose connection was then shut down.
    let subscriptionsRefused = Atomic<UInt64>(0)
    /// Violations committed to the history.
    let violationsStored = Atomic<UInt64>(0)
    /// Violations judged again after a restore that the history already held (the same id):
    /// published again, not stored twice.
    let violationsAlreadyStored = Atomic<UInt64>(0)
    /// History transactions that stored violations (group commit: one per group of hand-overs).
    let historyCommits = Atomic<UInt64>(0)
    /// Batches the history could not write (published all the same).
    let storeFailures = Atomic<UInt64>(0)
    /// Rows removed by retention.
    let historyPruned = Atomic<UInt64>(0)
}
