import ModalwatchABI

/// One presentation on a session's stack; its id bytes, then its title's first bytes, live in
/// the session's id arena.
struct StackEntry {
    var kind: UInt32
    var idOffset: Int32
    var idLength: Int32
    var idHash: UInt64
    var ts: Int64
    var style: Int32 = MW_ABSENT
    var transition: Int32 = MW_ABSENT
    var sizeClass: Int32 = MW_ABSENT
    var navDepth: Int32 = 0
    var buttonCount: Int32 = 0
    var cancelIndex: Int32 = MW_ABSENT
    var destructiveIndex: Int32 = MW_ABSENT
    var inPopover: Int32 = MW_ABSENT
    /// The bytes of its title kept after its id in the arena (`Session.maxTitleBytes` at most).
    var titleLength: Int32 = 0

    /// Where its bytes in the arena end.
    var arenaEnd: Int32 { idOffset + idLength + titleLength }

    /// The C view, its id pointing into `arena`.
    func view(arena: UnsafePointer<UInt8>) -> mw_presentation {
        mw_presentation(
            kind: kind, reserved: 0,
            id: mw_str(ptr: UnsafeRawPointer(arena + Int(idOffset)).assumingMemoryBound(to: CChar.self), len: Int(idLength)),
            ts: ts, style: style, transition: transition, size_class: sizeClass, nav_depth: navDepth,
            button_count: buttonCount, cancel_index: cancelIndex, destructive_index: destructiveIndex,
            in_popover: inPopover)
    }
}
