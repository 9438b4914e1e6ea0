public import ModalwatchABI

/// An earlier event that belongs to a violation's evidence (`mw_event_ref`).
public struct EventRef {
    /// Its type.
    public var type: EventType
    /// Its event time (ms).
    public var ts: Int64
    /// Its presentation id, or absent.
    public var id: Text
    /// Its sequence number, 0 when unknown.
    public var seq: Int64

    /// Makes a reference; `id` must stay valid during the call (a view of the host's data).
    public init(type: EventType, ts: Int64, id: Text = .absent, seq: Int64 = 0) {
        self.type = type
        self.ts = ts
        self.id = id
        self.seq = seq
    }

    /// The C record; the type name points at static storage.
    public var raw: mw_event_ref {
        let name = type.wireName
        return mw_event_ref(
            type: mw_str(
                ptr: UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self),
                len: name.utf8CodeUnitCount
            ),
            ts: ts,
            id: id.raw,
            seq: seq
        )
    }
}
