import ByteBasics

/// A session's journal entries copied as they are, so that turning them into records (strings,
/// one per event, up to the journal's 16,384) happens on another thread than the engine's; and
/// the walk of the journal in slices that copies them (`session`) or its alerts (`sessions`),
/// so that no turn of the engine's thread reads the whole ring.
extension Engine {
    /// Entries one step of a walk visits; the caller's clock is asked between steps.
    public static let journalStep = 32
    /// Entries in one piece of a copy: one allocation of ~14 KB, of its final size. Small pieces
    /// come from the allocator's free lists; large or growing arrays take fresh pages from the
    /// kernel, whose page faults (tens of µs each on a loaded machine) cost a turn its slice.
    public static let journalPiece = 64

    /// A walk of the journal in slices, newest first, from the newest entry at its start: each
    /// step goes on below where the last stopped. An entry the ring overwrote between two steps is
    /// not visited (the walk then ends early: what it gives is the journal's newest part).
    public final class JournalWalk {
        /// Entries at positions below this are still to visit.
        fileprivate var next: UInt64
        /// Whether every entry still held was visited.
        public fileprivate(set) var finished = false

        fileprivate init(from position: UInt64) {
            next = position
        }
    }

    /// A walk from the journal's newest entry.
    func startJournalWalk() -> JournalWalk {
        JournalWalk(from: journal.recorded)
    }

    /// Visits the next `journalStep` entries of `walk` (fewer at its end), newest first.
    func stepJournalWalk(_ walk: JournalWalk, _ body: (SessionJournal.Entry) -> Void) {
        let lowest = journal.recorded - UInt64(journal.count)
        guard !walk.finished, walk.next > lowest else {
            walk.finished = true
            return
        }
        let low = max(lowest, walk.next - min(walk.next, UInt64(Self.journalStep)))
        journal.forEachEntry(at: low..<walk.next, body)
        walk.next = low
        if low <= lowest { walk.finished = true }
    }

    /// The raw journal entries of one session, newest first; `excerpt()` reads them.
    public struct JournalCopy: Sendable {
        /// The entries in pieces of at most `journalPiece`, newest first.
        fileprivate var pieces: [[SessionJournal.Entry]]
        /// The live session's events, when it is live.
        fileprivate var liveEvents: UInt64?

        /// What the journal held of the session at the time of the copy: its events (the live
        /// session's current launch, or, for a session no longer live, the launch of its newest
        /// entry), oldest first, and whether they are all of that launch.
        public func excerpt() -> JournalExcerpt {
            let records = pieces.joined().reversed().map(SessionJournal.record(of:))
            let complete =
                records.first?.type == WireEventType.sessionStart.string
                || (liveEvents.map { UInt64(records.count) >= $0 } ?? false)
            return JournalExcerpt(records: records, complete: complete)
        }
    }

    /// A copy of one session's journal entries under way (`continueJournalCopy`). Made and used
    /// on the engine's thread.
    public final class JournalCopying {
        fileprivate let id: [UInt8]
        fileprivate let hash: UInt64
        /// The launch copied: the live session's, else the one of the newest entry found.
        fileprivate var launch: Int64?
        fileprivate let liveEvents: UInt64?
        fileprivate let walk: JournalWalk
        fileprivate var pieces: [[SessionJournal.Entry]] = []

        fileprivate init(id: [UInt8], hash: UInt64, launch: Int64?, liveEvents: UInt64?, walk: JournalWalk) {
            self.id = id
            self.hash = hash
            self.launch = launch
            self.liveEvents = liveEvents
            self.walk = walk
        }
    }

    /// Starts copying what the journal holds of the session `id` (`continueJournalCopy` does it).
    public func startJournalCopy(session id: String) -> JournalCopying {
        var id = id
        return id.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            // The public hash the journal's entries carry: the walk reads every entry in order
            // (no table), and one of the same hash but another id is told apart by its bytes.
            let hash = Hashing.fnv1a(bytes)
            let live = table.find(bytes)
            return JournalCopying(
                id: Array(utf8),
                hash: hash,
                launch: live?.startedTs,
                liveEvents: live?.events,
                walk: startJournalWalk()
            )
        }
    }

    /// Goes on with `copying`: walks the journal a step at a time until `shouldStop()` (asked
    /// after each step of `journalStep` entries) or its end; returns the copy once it is whole.
    /// No strings are built.
    public func continueJournalCopy(_ copying: JournalCopying, shouldStop: () -> Bool) -> JournalCopy? {
        copying.id.withUnsafeBytes { id in
            repeat {
                stepJournalWalk(copying.walk) { entry in
                    guard entry.sessionHash == copying.hash, entry.session.matches(id) else { return }
                    if copying.launch == nil { copying.launch = entry.sessionStartedTs }
                    guard entry.sessionStartedTs == copying.launch else { return }
                    if copying.pieces.last.map({ $0.count >= Self.journalPiece }) ?? true {
                        copying.pieces.append([])
                        copying.pieces[copying.pieces.count - 1].reserveCapacity(Self.journalPiece)
                    }
                    copying.pieces[copying.pieces.count - 1].append(entry)
                }
            } while !copying.walk.finished && !shouldStop()
        }
        guard copying.walk.finished else { return nil }
        return JournalCopy(pieces: copying.pieces, liveEvents: copying.liveEvents)
    }
}

@available(*, unavailable)
extension Engine.JournalWalk: Sendable {}

@available(*, unavailable)
extension Engine.JournalCopying: Sendable {}
