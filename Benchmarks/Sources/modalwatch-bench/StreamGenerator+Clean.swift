/// The clean profile of `bench/generate_stream.py --profile clean`: the stress profile's
/// draws, kept to what the guidelines allow, and a tap where they do not.
extension StreamGenerator {
    /// Lists of the stress lists' lengths (so the same draws), without the texts, styles
    /// and transitions that break a rule.
    private static let cleanTransitions = ["cover_vertical", "cover_vertical", "cross_dissolve"]
    private static let cleanStyles = ["automatic", "full_screen", "page_sheet", "form_sheet", "automatic"]
    private static let cleanTitles = ["Delete this message?", "Can’t connect", "Message not sent", "Save changes?"]
    private static let cleanMessages: [String?] = ["This action cannot be undone.", "Check the network connection.", nil]
    private static let nav = ["nav.push", "nav.pop"]
    private static let states = ["started", "progress", "finished", "failed"]
    private static let via = ["button", "gesture"]
    private static let tapControls = ["button", "toolbar_button", "cell"]
    private static let tapLabels = ["Trash", "Share", "Compose", "Reply all", "Edit"]
    private static let navScreens = ["Inbox", "Details", "Settings"]
    private static let lifecycleTypes = ["app.background", "app.foreground"]

    /// One event in this many (at the first session that may show an alert) is the clean
    /// profile's violation: an alert titled "Error".
    static let cleanViolationEvery = 100

    /// Writes one clean event's fields after the common ones (`type` onwards, no closing brace).
    static func cleanEvent(_ rng: inout MersenneTwister, _ st: SessionState, _ out: inout ByteWriter) {
        let r = rng.random()
        let ts = st.ts
        if let top = st.stack.last, r < 0.30 {
            if top.kind != .alert || ts - top.shown >= 1_500 {
                st.stack.removeLast()
                out.raw(",\"type\":")
                out.string(top.kind.rawValue + ".dismissed")
                out.raw(",\"id\":")
                out.string(top.id)
                switch top.kind {
                case .alert, .sheet:
                    out.raw(",\"via\":\"button\",\"button\":")
                    out.integer(rng.range(0, 2))
                case .modal:
                    out.raw(",\"via\":")
                    out.string(rng.choice(via))
                    out.raw(rng.random() < 0.1 ? ",\"unsaved_changes\":true,\"confirmed\":true" : ",\"unsaved_changes\":false")
                case .popover:
                    break
                }
                return
            }
        } else if r < 0.45 {
        } else if r < 0.55 {
            let title = rng.choice(cleanTitles)
            let message = rng.choice(cleanMessages)
            let text = "\(title)\n\(message ?? "None")"
            if st.mayAlert(text) {
                st.presentAlert(text)
                out.raw(",\"type\":\"alert.presented\",\"id\":")
                out.string("a\(st.n)")
                out.raw(",\"title\":")
                out.string(title)
                out.raw(",\"message\":")
                if let message { out.string(message) } else { out.raw("null") }
                out.raw(",\"buttons\":[{\"title\":\"Cancel\",\"style\":\"cancel\"},{\"title\":\"Delete\",\"style\":\"destructive\"}]")
                return
            }
        } else if r < 0.63 {
            if st.mayPresent(), let action = st.action, ts - action < 800 {
                let pid = "sh\(st.n)"
                st.shown.append(ts)
                st.stack.append((.sheet, pid, ts, 0))
                out.raw(",\"type\":\"sheet.presented\",\"id\":")
                out.string(pid)
                out.raw(",\"buttons\":[{\"title\":\"Delete Message\",\"style\":\"destructive\"},{\"title\":\"Cancel\",\"style\":\"cancel\"}]")
                return
            }
        } else if r < 0.73 {
            let style = rng.choice(cleanStyles)
            let transition = rng.choice(cleanTransitions)
            let modals = st.stack.count(where: { $0.kind == .modal })
            if st.mayPresent() && !st.stack.contains(where: { $0.kind == .popover }) && modals < 2 {
                let pid = "m\(st.n)"
                st.shown.append(ts)
                st.stack.append((.modal, pid, ts, 0))
                out.raw(",\"type\":\"modal.presented\",\"id\":")
                out.string(pid)
                out.raw(",\"style\":")
                out.string(style)
                out.raw(",\"transition\":")
                out.string(transition)
                out.raw(",\"title\":\"New Message\",\"buttons\":[{\"title\":\"Cancel\",\"role\":\"cancel\"},{\"title\":\"Send\",\"role\":\"done\"}]")
                return
            }
        } else if r < 0.78 {
            if st.stack.count < 6 {
                let pid = "p\(st.n)"
                st.stack.append((.popover, pid, ts, 0))
                out.raw(",\"type\":\"popover.presented\",\"id\":")
                out.string(pid)
                return
            }
        } else if r < 0.88 {
            var kind = rng.choice(nav)
            if let top = st.stack.last, top.kind == .modal {
                // Not more than 3 screens deep inside a modal view.
                if kind == "nav.push" && top.pushes >= 3 { kind = "nav.pop" }
                st.stack[st.stack.count - 1].pushes += kind == "nav.push" ? 1 : -1
            }
            out.raw(",\"type\":")
            out.string(kind)
            out.raw(",\"screen\":")
            out.string(rng.choice(navScreens))
            return
        } else if r < 0.96 {
            let task = rng.range(0, 4)
            let state = rng.choice(states)
            if state == "finished" { st.finished = ts }
            out.raw(",\"type\":\"task.progress\",\"task\":\"t")
            out.integer(task)
            out.raw("\",\"state\":")
            out.string(state)
            return
        } else {
            out.raw(",\"type\":")
            out.string(rng.choice(lifecycleTypes))
            return
        }
        st.action = ts
        out.raw(",\"type\":\"user.action\",\"control\":")
        out.string(rng.choice(tapControls))
        out.raw(",\"label\":")
        out.string(rng.choice(tapLabels))
    }
}

extension StreamGenerator.SessionState {
    /// Drops the times before the trailing window; how many are left.
    private static func inWindow(_ times: inout [Int], _ ts: Int, _ window: Int) -> Int {
        while let first = times.first, first <= ts - window { times.removeFirst() }
        return times.count
    }

    /// At most 10 alerts, sheets and modals in 300 s, and a stack of at most 6.
    func mayPresent() -> Bool {
        stack.count < 6 && Self.inWindow(&shown, ts, 300_000) < 10
    }

    /// At most 3 alerts in 600 s, none within 2 s of a finished task, a text at most twice.
    func mayAlert(_ text: String) -> Bool {
        guard mayPresent(), Self.inWindow(&alerts, ts, 600_000) < 3 else { return false }
        if let finished, ts - finished <= 2_000 { return false }
        return texts[text, default: 0] < 2
    }

    /// Notes an alert shown now.
    func presentAlert(_ text: String) {
        alerts.append(ts)
        shown.append(ts)
        texts[text, default: 0] += 1
        stack.append((.alert, "a\(n)", ts, 0))
    }
}
