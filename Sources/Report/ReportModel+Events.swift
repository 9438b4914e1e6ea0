import ByteBasics
import CatalogueVocabulary
public import ModalwatchABI

extension ReportModel {
    /// A session that ends once the engine has judged its `session.end`.
    public struct SessionEnd: Sendable {
        let session: String
        let ts: Int64
    }

    /// Observes one decoded event, before the engine judges it (so that the violations it
    /// triggers find its presentation). For a `session.end`, pass what it returns to
    /// `endSession(_:)` after judging it.
    @discardableResult
    public func observe(_ pointer: UnsafePointer<mw_event>) -> SessionEnd? {
        var event = pointer.pointee
        event.ts = EventTime.clamped(event.ts)  // the decoder's range already; held for any caller
        guard let session = Self.string(event.session) else { return nil }
        let track = track(session, app: Self.string(event.app), ts: event.ts)
        let type = mw_event_type(rawValue: event.type)
        if type == MW_EVENT_SESSION_START {
            if let app = Self.string(event.app) { track.timeline.app = app }
            track.timeline.appVersion = Self.string(event.app_version)
        }
        track.timeline.end = max(track.timeline.end, event.ts)
        let counted = count(track, ts: event.ts)
        if counted { track.timeline.events += 1 }
        switch type {
        case MW_EVENT_ALERT_PRESENTED: presented(.alert, event, track, counted)
        case MW_EVENT_SHEET_PRESENTED: presented(.sheet, event, track, counted)
        case MW_EVENT_MODAL_PRESENTED: presented(.modal, event, track, counted)
        case MW_EVENT_POPOVER_PRESENTED: presented(.popover, event, track, counted)
        case MW_EVENT_ALERT_DISMISSED, MW_EVENT_SHEET_DISMISSED, MW_EVENT_MODAL_DISMISSED, MW_EVENT_POPOVER_DISMISSED:
            if let id = Self.string(event.id) { track.dismiss(id, at: event.ts) }
        case MW_EVENT_SESSION_END:
            return SessionEnd(session: session, ts: event.ts)
        default:
            break
        }
        return nil
    }

    /// Ends a session after its `session.end` was judged: its numbers go into the distributions.
    public func endSession(_ end: SessionEnd) {
        self.end(end.session, at: end.ts)
    }

    private func presented(_ kind: PresentationKind, _ event: mw_event, _ track: SessionTrack, _ counted: Bool) {
        guard let id = Self.string(event.id) else { return }
        var buttons: [String] = []
        if let base = event.buttons {
            for i in 0..<Int(event.button_count) { buttons.append(Self.string(base[i].title) ?? "") }
        } else if let base = event.modal_buttons {
            for i in 0..<Int(event.modal_button_count) { buttons.append(Self.string(base[i].title) ?? "") }
        }
        present(
            track,
            kind: kind,
            id: id,
            title: Self.string(event.title),
            message: Self.string(event.message),
            buttons: buttons,
            ts: event.ts,
            counted: counted
        )
    }

    /// The text of an `mw_str`, or nil when absent.
    static func string(_ value: mw_str) -> String? {
        guard let pointer = value.ptr else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: value.len), as: UTF8.self)
    }
}
