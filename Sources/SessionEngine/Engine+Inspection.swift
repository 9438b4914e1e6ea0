import ByteBasics
import ModalwatchABI
import RuleHost

/// Read-only views of the live sessions, for the control socket.
extension Engine {
    /// Every live session, most recently active first.
    public func sessionSnapshots() -> [SessionSnapshot] {
        table.allSessions().map(snapshot)
    }

    /// The session with this id, if live.
    public func sessionSnapshot(id: String) -> SessionSnapshot? {
        var id = id
        return id.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            return table.find(bytes).map(snapshot)
        }
    }

    /// Live sessions by app.
    public func liveSessionsByApp() -> [String: Int] {
        apps.filter { $0.value.liveSessions > 0 }.mapValues(\.liveSessions)
    }

    func snapshot(_ session: Session) -> SessionSnapshot {
        SessionSnapshot(
            id: session.id.string,
            app: session.app.name,
            device: Self.deviceName(session.device),
            edition: session.app.profile.edition.name,
            startedTs: session.startedTs,
            lastTs: session.lastTs,
            lastObserved: session.lastObserved,
            events: session.events,
            alerts: session.alertsPresented,
            presentations: session.presentations,
            modalDepth: Int(session.modalDepth),
            maxModalDepth: Int(session.maxModalDepth),
            violations: session.violations,
            foreground: session.foreground,
            tasksRunning: session.runningTaskCount,
            stack: session.stack.map { entry in
                SessionSnapshot.Presentation(
                    kind: (PresentationKind(rawValue: entry.kind) ?? .popover).name,
                    id: String(decoding: session.idBytes(of: entry), as: UTF8.self),
                    ts: entry.ts,
                    navDepth: Int(entry.navDepth)
                )
            }
        )
    }

    static func deviceName(_ device: Int32) -> String {
        (WireDevice(rawValue: device) ?? .phone).string
    }
}
