import Glibc

/// The allocator's settings for a long-running daemon (docs/RELIABILITY.md, "Fault soak").
///
/// glibc's defaults let a daemon's RSS wander: each thread that allocates under contention
/// gets an arena of its own (up to 8 per core), and what one arena frees the others never
/// reuse; and the threshold above which a block is mmapped (and given back whole on free)
/// rises with every large block freed, so after a store outage's spool or a burst of large
/// messages, later large blocks stay in the heaps. The daemon therefore keeps two arenas and
/// a fixed mmap threshold of 128 KiB, which keeps the fault soak's RSS flatter and lower
/// (docs/RELIABILITY.md). An operator's `MALLOC_ARENA_MAX` or
/// `MALLOC_MMAP_THRESHOLD_` in the environment wins: a setting given there is left alone.
public enum HeapSettings: Sendable {
    /// Arenas at most.
    public static let arenas: Int32 = 2
    /// Blocks of this size or more are mmapped, and unmapped when freed.
    public static let mmapThreshold: Int32 = 128 << 10

    /// Applies the settings the environment does not give; call once, early in `main`.
    public static func apply(environment: [String: String]) {
        if environment["MALLOC_ARENA_MAX"] == nil { _ = glibcMallopt(mArenaMax, arenas) }
        if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = glibcMallopt(mMmapThreshold, mmapThreshold) }
    }

    /// malloc.h's `M_ARENA_MAX` and `M_MMAP_THRESHOLD`.
    private static let mArenaMax: Int32 = -8
    private static let mMmapThreshold: Int32 = -3
}

/// glibc's `mallopt(3)` (its header, malloc.h, is not in the Glibc module).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
