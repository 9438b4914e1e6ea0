/// "Did you mean …?": the known name closest to a mistyped one.
enum Suggestion {
    /// The name of `known` nearest to `typed` by edit distance (insertions, deletions,
    /// substitutions, and swaps of two neighbours), if it is near enough to be a typo: at
    /// most a third of the longer name's length, and at least 1. A known name that starts
    /// with or contains what was typed (3 characters or more) counts as near.
    static func closest(to typed: String, in known: [String]) -> String? {
        let lowered = typed.lowercased()
        var best: (name: String, distance: Int)?
        for name in known {
            let distance = editDistance(Array(lowered), Array(name.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        if let best, best.distance <= max(1, max(typed.count, best.name.count) / 3) { return best.name }
        if lowered.count >= 3, let containing = known.first(where: { $0.lowercased().contains(lowered) }) {
            return containing
        }
        return nil
    }

    /// One line for an unknown name: the nearest known one, or the list of them.
    static func sentence(_ typed: String, known: [String], what: String, listing: String) -> String {
        if let near = closest(to: typed, in: known) {
            return "unknown \(what) '\(typed)'; did you mean '\(near)'? (\(listing))"
        }
        return "unknown \(what) '\(typed)'; \(listing)"
    }

    /// Optimal string alignment distance.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
