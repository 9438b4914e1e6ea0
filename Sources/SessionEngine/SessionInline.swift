/// What a session holds beside its `SessionRecord`, in the same slot of the session table's
/// arena: the first presentations of its stack (`stackEntries` `StackEntry`s), then the first
/// `arenaBytes` bytes of their ids and titles. Most sessions never need more, so most never
/// allocate for them. Plain bytes, laid out by these sizes.
enum SessionInline {
    /// Stack entries held inline before the stack moves to memory of its own.
    static let stackEntries = 2
    /// Id and title bytes held inline before they move to memory of their own.
    static let arenaBytes = 64

    /// Where the id and title bytes start.
    @inline(__always)
    static var arenaOffset: Int { stackEntries * MemoryLayout<StackEntry>.stride }

    /// Bytes of the inline part.
    @inline(__always)
    static var size: Int { arenaOffset + arenaBytes }
}
