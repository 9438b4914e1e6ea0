import ByteBasics
import Glibc

/// The hand-over from the ingest thread to the publishing thread: one buffer of
/// `OutboundBatch` records behind a mutex, and a condition variable the publishing
/// thread sleeps on while the buffer is empty.
///
/// - The ingest thread `offer`s a batch: it is copied onto the end of the buffer, and the
///   publishing thread is woken only when it sleeps (one `futex` call then, none while it
///   works). A batch that does not fit (`limitBytes`) is refused: the caller keeps it.
/// - The publishing thread `take`s everything waiting in one step: the buffer is swapped
///   with its own empty one, so the bytes are never copied twice and both buffers keep
///   their capacity.
/// - `finish` says nothing more will come; `take` reports it once the buffer is empty.
///
/// The records are self-delimiting, so batches end to end read as one batch.
final class HandOver: @unchecked Sendable {
    /// What `take` found.
    enum Taken: Equatable {
        /// Records were appended to the caller's buffer.
        case records
        /// Nothing came within the time given (or, without waiting, nothing was there).
        case nothing
        /// The buffer is empty and `finish` was called: nothing more will come.
        case finished
    }

    /// The most bytes the buffer holds; past it `offer` refuses (a batch offered to an empty
    /// buffer is always taken, whatever its size).
    let limitBytes: Int
    // `@unchecked Sendable`: every field below is read and written with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var buffer: [UInt8] = []
    private var finished = false
    /// The publishing thread sleeps on `condition`: an `offer` or `finish` signals it.
    private var sleeping = false

    /// A hand-over of at most `limitBytes` waiting.
    init(limitBytes: Int = 32 << 20) {
        self.limitBytes = limitBytes
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init")
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timeouts on the monotonic clock: a wall-clock jump neither wakes nor holds the thread.
        pthread_condattr_setclock(&attributes, PosixClock.monotonic.id)
        precondition(pthread_cond_init(condition, &attributes) == 0, "pthread_cond_init")
        pthread_condattr_destroy(&attributes)
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// The ingest thread's side: appends `records`, waking the publishing thread if it sleeps.
    /// False when the buffer is not empty and `records` would take it past `limitBytes`, or
    /// after `finish`: the caller keeps the records and offers them again later.
    func offer(_ records: UnsafeRawBufferPointer) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard !finished, buffer.isEmpty || buffer.count + records.count <= limitBytes else { return false }
        buffer.append(contentsOf: records)
        if sleeping { pthread_cond_signal(condition) }
        return true
    }

    /// The ingest thread's side: nothing more will come. `take` hands over what waits first.
    func finish() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        finished = true
        if sleeping { pthread_cond_signal(condition) }
    }

    /// The publishing thread's side: appends every record waiting to `records` (swapping the
    /// buffers when `records` is empty). With `waitingMs` > 0, sleeps up to that long for
    /// something to come first.
    func take(into records: inout [UInt8], waitingMs: Int = 0) -> Taken {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if buffer.isEmpty, !finished, waitingMs > 0 {
            var deadline = PosixClock.monotonic.now()
            let nanoseconds = Int(deadline.tv_nsec) + (waitingMs % 1000) * 1_000_000
            deadline.tv_sec += waitingMs / 1000 + nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            sleeping = true
            // Spurious wake-ups and the timeout both end in the checks below.
            while buffer.isEmpty, !finished, pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT {}
            sleeping = false
        }
        guard !buffer.isEmpty else { return finished ? .finished : .nothing }
        if records.isEmpty {
            swap(&records, &buffer)
        } else {
            records.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        return .records
    }

    /// Whether `finish` was called.
    var isFinished: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return finished
    }

    /// Bytes waiting now (tests and diagnostics).
    var waitingBytes: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return buffer.count
    }
}
