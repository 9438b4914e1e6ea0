import EventDecoding
import ModalwatchABI

/// A recorded stream's lines with the app and session each belongs to, for routing them
/// to their shard: read with the daemon's own decoder. An event without `app` takes its
/// session's (from an earlier line's `app`); one whose session no earlier line named an app for
/// cannot be placed by its app (`unplaced`: it goes with app "", as a line that is not a valid
/// event does, to bucket `25`, where a daemon judges it without its session's start, or rejects
/// and counts it).
struct RecordedStream {
    struct Item {
        var bytes: [UInt8]
        var app: String
        var session: String
    }

    private(set) var items: [Item] = []
    /// Valid events that name no app and continue a session no earlier line named an app for.
    private(set) var unplaced = 0
    /// Valid events without a `seq`: a daemon cannot tell them from a replay's duplicates.
    private(set) var withoutSeq = 0

    init(lines: [[UInt8]]) {
        let decoder = EventDecoder()
        var appOfSession: [String: String] = [:]
        items.reserveCapacity(lines.count)
        for line in lines {
            var app = ""
            var session = ""
            decoder.decode(line) { item in
                guard case .event(let event) = item else { return }
                session = Self.string(event.pointee.session)
                if event.pointee.seq == 0 { withoutSeq += 1 }
                if let given = event.pointee.app.ptr {
                    app = Self.string(mw_str(ptr: given, len: event.pointee.app.len))
                    appOfSession[session] = app
                } else if let known = appOfSession[session] {
                    app = known
                } else {
                    unplaced += 1
                }
            }
            items.append(Item(bytes: line, app: app, session: session))
        }
    }

    private static func string(_ value: mw_str) -> String {
        guard let pointer = value.ptr else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: value.len), as: UTF8.self)
    }
}
