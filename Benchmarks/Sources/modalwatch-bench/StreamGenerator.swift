/// A port of `bench/generate_stream.py`: many concurrent sessions, the whole mix of
/// event types, about 180 bytes per event. With the same seed, events, sessions and
/// profile it writes exactly the script's bytes (it uses CPython's Mersenne Twister the
/// same way).
struct StreamGenerator {
    /// The script's `--profile`.
    enum Profile: String, CaseIterable, Sendable {
        /// Presentations at random: about one event in four raises a violation.
        case stress
        /// A well-behaved app: presentations only where the guidelines allow them, and
        /// about 1 % of events an alert titled "Error" (one violation each).
        case clean
    }

    private static let apps = ["com.example.mail", "com.example.photos", "com.example.notes", "com.example.shop", "com.example.maps"]
    private static let transitions = ["cover_vertical", "flip_horizontal", "cross_dissolve"]
    private static let styles = ["automatic", "full_screen", "page_sheet", "form_sheet", "current_context"]
    private static let devices = ["phone", "phone", "pad"]
    private static let controls = ["button", "toolbar_button", "cell"]
    private static let labels = ["Trash", "Share", "Compose", "Reply all", "Edit"]
    private static let alertTitles = ["Delete this message?", "Can’t connect", "Error", "Save changes?"]
    private static let alertMessages: [String?] = ["This action cannot be undone.", "Check your network connection", nil]
    private static let navTypes = ["nav.push", "nav.pop"]
    private static let screens = ["Inbox", "Details", "Settings"]
    private static let taskStates = ["started", "progress", "finished", "failed"]
    private static let lifecycle = ["app.background", "app.foreground"]
    private static let dismissVia = ["button", "gesture"]
    /// The event time of the first session, as in the script.
    static let t0 = 1_732_290_000_000

    enum Kind: String {
        case alert, sheet, modal, popover
    }

    final class SessionState {
        let app: String
        var ts: Int
        var seq = 1
        /// The presentations on screen; `shown` and `pushes` only in the clean profile.
        var stack: [(kind: Kind, id: String, shown: Int, pushes: Int)] = []
        var n = 0
        /// Clean profile: when the session's alerts were shown (trailing 600 s).
        var alerts: [Int] = []
        /// Clean profile: when its alerts, sheets and modals were shown (trailing 300 s).
        var shown: [Int] = []
        /// Clean profile: how often each alert text was shown.
        var texts: [String: Int] = [:]
        /// Clean profile: the last `user.action`.
        var action: Int?
        /// Clean profile: the last finished task.
        var finished: Int?

        init(app: String, ts: Int) {
            self.app = app
            self.ts = ts
        }
    }

    /// Events to write.
    let events: Int
    /// Concurrent sessions.
    let sessions: Int
    /// The script's `--seed`.
    let seed: UInt32
    /// The script's `--profile`.
    var profile: Profile = .stress

    /// Generates the stream.
    func generate() -> EventStream {
        var rng = MersenneTwister(seed: seed)
        var out = ByteWriter(capacity: events * 180)
        var offsets: [Int] = [0]
        offsets.reserveCapacity(events + 1)
        var states: [SessionState] = []
        var ids: [String] = []
        states.reserveCapacity(sessions)
        ids.reserveCapacity(sessions)
        var nextID = 0
        var owed = 0  // clean profile: violations due (one per cleanViolationEvery events)

        func base(_ out: inout ByteWriter, _ id: String, _ st: SessionState) {
            out.raw("{\"v\":1,\"session\":")
            out.string(id)
            out.raw(",\"ts\":")
            out.integer(st.ts)
            out.raw(",\"seq\":")
            out.integer(st.seq)
            out.raw(",\"app\":")
            out.string(st.app)
        }

        while offsets.count - 1 < events {
            defer { offsets.append(out.count) }
            if states.count < sessions || rng.random() < 0.001 {
                let bits = rng.bits(32)
                var id = ByteWriter(capacity: 18)
                id.byte(0x73)  // s
                id.padded(nextID, width: 8)
                id.byte(0x2D)
                id.hex(bits, width: 8)
                let sid = String(decoding: id.take(), as: UTF8.self)
                nextID += 1
                let app = rng.choice(Self.apps)
                let st = SessionState(app: app, ts: Self.t0 + rng.range(0, 60_000))
                states.append(st)
                ids.append(sid)
                out.raw("{\"v\":1,\"type\":\"session.start\",\"session\":")
                out.string(sid)
                out.raw(",\"ts\":")
                out.integer(st.ts)
                out.raw(",\"seq\":1,\"app\":")
                out.string(app)
                out.raw(",\"app_version\":\"4.2.1\",\"os\":\"iOS 18.1\",\"device\":")
                out.string(rng.choice(Self.devices))
                out.byte(0x7D)
                continue
            }
            let pick = rng.below(states.count)
            let st = states[pick], sid = ids[pick]
            st.ts += rng.range(50, 4000)
            st.seq += 1
            st.n += 1
            base(&out, sid, st)
            if profile == .clean {
                if (offsets.count - 1) % Self.cleanViolationEvery == 0 { owed += 1 }
                if owed > 0 && st.mayAlert("error") {
                    owed -= 1
                    st.presentAlert("error")
                    out.raw(",\"type\":\"alert.presented\",\"id\":")
                    out.string("a\(st.n)")
                    out.raw(",\"title\":\"Error\",\"message\":null,\"buttons\":[{\"title\":\"Cancel\",\"style\":\"cancel\"},{\"title\":\"OK\",\"style\":\"default\"}]")
                } else {
                    Self.cleanEvent(&rng, st, &out)
                }
                out.byte(0x7D)
                continue
            }
            let r = rng.random()
            if !st.stack.isEmpty && r < 0.30 {
                let (kind, pid, _, _) = st.stack.removeLast()
                out.raw(",\"type\":")
                out.string(kind.rawValue + ".dismissed")
                out.raw(",\"id\":")
                out.string(pid)
                switch kind {
                case .alert, .sheet:
                    out.raw(",\"via\":\"button\",\"button\":")
                    out.integer(rng.range(0, 2))
                case .modal:
                    out.raw(",\"via\":")
                    out.string(rng.choice(Self.dismissVia))
                    out.raw(rng.random() < 0.1 ? ",\"unsaved_changes\":true" : ",\"unsaved_changes\":false")
                case .popover:
                    break
                }
            } else if r < 0.45 {
                out.raw(",\"type\":\"user.action\",\"control\":")
                out.string(rng.choice(Self.controls))
                out.raw(",\"label\":")
                out.string(rng.choice(Self.labels))
            } else if r < 0.55 && st.stack.count < 6 {
                let pid = "a\(st.n)"
                st.stack.append((.alert, pid, 0, 0))
                out.raw(",\"type\":\"alert.presented\",\"id\":")
                out.string(pid)
                out.raw(",\"title\":")
                out.string(rng.choice(Self.alertTitles))
                out.raw(",\"message\":")
                if let message = rng.choice(Self.alertMessages) { out.string(message) } else { out.raw("null") }
                out.raw(",\"buttons\":[{\"title\":\"Cancel\",\"style\":\"cancel\"},{\"title\":\"Delete\",\"style\":\"destructive\"}]")
            } else if r < 0.63 && st.stack.count < 6 {
                let pid = "sh\(st.n)"
                st.stack.append((.sheet, pid, 0, 0))
                out.raw(",\"type\":\"sheet.presented\",\"id\":")
                out.string(pid)
                out.raw(",\"buttons\":[{\"title\":\"Delete Message\",\"style\":\"destructive\"},{\"title\":\"Cancel\",\"style\":\"cancel\"}]")
            } else if r < 0.73 && st.stack.count < 6 {
                let pid = "m\(st.n)"
                st.stack.append((.modal, pid, 0, 0))
                out.raw(",\"type\":\"modal.presented\",\"id\":")
                out.string(pid)
                out.raw(",\"style\":")
                out.string(rng.choice(Self.styles))
                out.raw(",\"transition\":")
                out.string(rng.choice(Self.transitions))
                out.raw(",\"title\":\"New Message\",\"buttons\":[{\"title\":\"Cancel\",\"role\":\"cancel\"},{\"title\":\"Send\",\"role\":\"done\"}]")
            } else if r < 0.78 && st.stack.count < 6 {
                let pid = "p\(st.n)"
                st.stack.append((.popover, pid, 0, 0))
                out.raw(",\"type\":\"popover.presented\",\"id\":")
                out.string(pid)
            } else if r < 0.88 {
                out.raw(",\"type\":")
                out.string(rng.choice(Self.navTypes))
                out.raw(",\"screen\":")
                out.string(rng.choice(Self.screens))
            } else if r < 0.96 {
                out.raw(",\"type\":\"task.progress\",\"task\":\"t")
                out.integer(rng.range(0, 4))
                out.raw("\",\"state\":")
                out.string(rng.choice(Self.taskStates))
            } else {
                out.raw(",\"type\":")
                out.string(rng.choice(Self.lifecycle))
            }
            out.byte(0x7D)
        }
        return EventStream(bytes: out.take(), offsets: offsets, sessions: states.count)
    }
}
