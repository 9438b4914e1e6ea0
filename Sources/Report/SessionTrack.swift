import CatalogueVocabulary

/// A live session while a stream is read: its presentation stack now, and its timeline so far.
final class SessionTrack {
    /// A presentation on the stack now.
    struct Open {
        let id: String
        let kind: PresentationKind
        let title: String?
        let start: Int64
    }

    var timeline: SessionTimeline
    /// The stack, bottom first.
    var stack: [Open] = []
    /// Presentation id → the key of its texts in the worst-presentations counter (the most recent 256).
    var presentationKeys: [String: String] = [:]
    private var keyOrder: [String] = []
    /// Whether any of its events fell inside the report's filter.
    var counted = false

    init(id: String, app: String, start: Int64) {
        timeline = SessionTimeline(id: id, app: app, start: start, hasEvents: true)
    }

    /// Modal views on the stack.
    var modalDepth: Int { stack.reduce(0) { $0 + ($1.kind == .modal ? 1 : 0) } }

    func remember(presentation id: String, key: String) {
        if presentationKeys.updateValue(key, forKey: id) == nil {
            keyOrder.append(id)
            if keyOrder.count > 256 { presentationKeys[keyOrder.removeFirst()] = nil }
        }
    }

    func push(_ open: Open) {
        stack.append(open)
    }

    /// Dismisses `id` and whatever was presented above it; false when it is not on the stack.
    @discardableResult
    func dismiss(_ id: String, at ts: Int64) -> Bool {
        guard let index = stack.lastIndex(where: { $0.id == id }) else { return false }
        close(from: index, at: ts, open: false)
        return true
    }

    /// Closes every presentation from stack index `index` up.
    func close(from index: Int, at ts: Int64, open: Bool) {
        for level in index..<stack.count {
            let entry = stack[level]
            timeline.addSpan(
                .init(
                    kind: entry.kind,
                    id: entry.id,
                    title: entry.title,
                    level: level,
                    start: entry.start,
                    end: max(ts, entry.start),
                    open: open
                )
            )
        }
        stack.removeSubrange(index...)
    }
}
