/// A session's firing marks (`SessionRecord.marks`): out of its record, since only a report
/// needs them. Non-copyable: its maps own their memory.
struct FiringMarks: ~Copyable {
    /// Firings already made for once-per-subject / key / session rules.
    var fired = IntegerMap()
    /// For once-per-window rules: the event time until which each rule (by seed) stays quiet.
    var quiet = IntegerMap()
}
