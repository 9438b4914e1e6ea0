/// Violations counted by rule and severity on the ingest thread, one step a violation: an
/// open-addressing table keyed by the rule's seed mixed with the severity (already a hash, so
/// no hashing of its own), holding the names only for the metrics.
struct ViolationCounts {
    /// A rule and the severity it fired with.
    struct RuleSeverity: Hashable {
        let rule: String
        let severity: String
    }

    private struct Slot {
        var key: UInt64
        var count: UInt64
        var names: RuleSeverity?
    }

    /// A power of two long; an empty slot has no `names`.
    private var slots = [Slot](repeating: Slot(key: 0, count: 0, names: nil), count: 64)
    private var used = 0

    /// Counts one violation under `key`; `names` is called only the first time the key is seen.
    mutating func add(_ key: UInt64, names: () -> RuleSeverity) {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key ^ (key >> 29)) & mask
        while slots[index].names != nil {
            if slots[index].key == key {
                slots[index].count += 1
                return
            }
            index = (index + 1) & mask
        }
        slots[index] = Slot(key: key, count: 1, names: names())
        used += 1
        if used * 2 > slots.count { grow() }
    }

    /// The counts by rule and severity (keys that name the same pair are added up).
    var byRule: [RuleSeverity: UInt64] {
        var counts: [RuleSeverity: UInt64] = [:]
        for slot in slots { if let names = slot.names { counts[names, default: 0] += slot.count } }
        return counts
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(key: 0, count: 0, names: nil), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.names != nil {
            var index = Int(truncatingIfNeeded: slot.key ^ (slot.key >> 29)) & mask
            while slots[index].names != nil { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
