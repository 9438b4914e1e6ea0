import ModalwatchABI

/// One presentation on a session's stack, as the rules see it: the `mw_presentation` itself,
/// so the stack is handed to the rules as it is kept. Its id points into the session's
/// presentation arena, where its bytes sit after the title's length (two bytes) and before
/// the title's first bytes; the session moves these pointers whenever the arena moves.
struct StackEntry {
    /// The C view.
    var view: mw_presentation

    /// An entry of `kind` presented at `ts`, its id not placed yet.
    init(kind: UInt32, ts: Int64) {
        view = mw_presentation(
            kind: kind,
            reserved: 0,
            id: mw_str(ptr: nil, len: 0),
            ts: ts,
            style: MW_ABSENT,
            transition: MW_ABSENT,
            size_class: MW_ABSENT,
            nav_depth: 0,
            button_count: 0,
            cancel_index: MW_ABSENT,
            destructive_index: MW_ABSENT,
            in_popover: MW_ABSENT
        )
    }

    var kind: UInt32 { view.kind }
    var ts: Int64 { view.ts }
    var style: Int32 {
        get { view.style }
        set { view.style = newValue }
    }
    var transition: Int32 {
        get { view.transition }
        set { view.transition = newValue }
    }
    var sizeClass: Int32 {
        get { view.size_class }
        set { view.size_class = newValue }
    }
    var navDepth: Int32 {
        get { view.nav_depth }
        set { view.nav_depth = newValue }
    }
    var buttonCount: Int32 {
        get { view.button_count }
        set { view.button_count = newValue }
    }
    var cancelIndex: Int32 {
        get { view.cancel_index }
        set { view.cancel_index = newValue }
    }
    var destructiveIndex: Int32 {
        get { view.destructive_index }
        set { view.destructive_index = newValue }
    }
    var inPopover: Int32 {
        get { view.in_popover }
        set { view.in_popover = newValue }
    }

    /// The id bytes, in the arena.
    var idBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: view.id.ptr, count: view.id.len) }

    /// The bytes of its title kept after its id in the arena (`Session.maxTitleBytes` at most).
    var titleLength: Int {
        guard let id = view.id.ptr else { return 0 }
        return Int(UnsafeRawPointer(id).loadUnaligned(fromByteOffset: -StackEntry.titleLengthBytes, as: UInt16.self))
    }

    /// The title bytes kept (empty when it had none).
    var titleBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: view.id.ptr.map { UnsafeRawPointer($0) + view.id.len }, count: titleLength)
    }

    /// Bytes the arena holds for an entry before its id: its title's length.
    static let titleLengthBytes = 2
}
