import Glibc

/// The memory sessions hold beyond their slot in the session table's arena (deeper stacks,
/// longer presentation ids and titles, more running tasks, rule maps and windows past their
/// inline room): blocks of 64 bytes times a power of two, up to 8 KiB, cut from chunks of
/// 256 KiB. A block given back goes on its size's free list for the next taker, so
/// sessions that first need more take it without a `malloc` of their own, and a table that
/// has its size allocates nothing. Larger blocks come from `malloc` and go back to `free`.
///
/// The table owns one; the records reach it through their `Session` handle. Every block of a
/// record goes back through `deallocate` with the size it was taken with. Non-copyable: it
/// owns its chunks, freed with it.
struct SpillPool: ~Copyable {
    /// Bytes of the smallest block.
    static let smallestBlock = 64
    /// Sizes of blocks (64 B, 128 B, ... 8 KiB).
    static let classCount = 8
    /// Bytes of each chunk the blocks are cut from.
    static let chunkBytes = 256 * 1024

    /// The first free block of each size; a free block holds the next in its first word.
    private var freeLists: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Every chunk, to free with the pool.
    private var chunks: UnsafeMutablePointer<UnsafeMutableRawPointer>?
    private var chunkCount = 0
    private var chunkCapacity = 0
    /// The unused end of the newest chunk.
    private var cursor: UnsafeMutableRawPointer?
    private var remaining = 0

    /// An empty pool; it takes its first chunk at the first block.
    init() {
        freeLists = .allocate(capacity: Self.classCount)
        freeLists.initialize(repeating: nil, count: Self.classCount)
    }

    deinit {
        for i in 0..<chunkCount { chunks![i].deallocate() }
        chunks?.deallocate()
        freeLists.deallocate()
    }

    /// The size class of a block of `byteCount` bytes, or nil past the largest.
    @inline(__always)
    private static func sizeClass(_ byteCount: Int) -> Int? {
        let units = (max(byteCount, 1) + smallestBlock - 1) / smallestBlock
        let index = units <= 1 ? 0 : Int.bitWidth - (units - 1).leadingZeroBitCount
        return index < classCount ? index : nil
    }

    /// Bytes the block for a request of `byteCount` bytes really has (callers may use them all).
    static func blockSize(_ byteCount: Int) -> Int {
        guard let index = sizeClass(byteCount) else { return byteCount }
        return smallestBlock << index
    }

    /// A block of at least `byteCount` bytes (`blockSize(byteCount)`), 16-byte aligned.
    mutating func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        guard let index = Self.sizeClass(byteCount) else {
            return UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 16)
        }
        if let block = freeLists[index] {
            freeLists[index] = block.load(as: UnsafeMutableRawPointer?.self)
            return block
        }
        let size = Self.smallestBlock << index
        if remaining < size { takeChunk() }
        let block = cursor!
        cursor = block + size
        remaining -= size
        return block
    }

    /// Gives back a block taken with `allocate(byteCount:)` for the same `byteCount`.
    mutating func deallocate(_ block: UnsafeMutableRawPointer, byteCount: Int) {
        guard let index = Self.sizeClass(byteCount) else {
            block.deallocate()
            return
        }
        block.storeBytes(of: freeLists[index], as: UnsafeMutableRawPointer?.self)
        freeLists[index] = block
    }

    /// A typed block of room for `count` values of `T`.
    mutating func allocate<T: ~Copyable>(_: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        allocate(byteCount: count * MemoryLayout<T>.stride).bindMemory(to: T.self, capacity: count)
    }

    /// Gives back a typed block taken for `count` values of `T`.
    mutating func deallocate<T: ~Copyable>(_ block: UnsafeMutablePointer<T>, count: Int) {
        deallocate(UnsafeMutableRawPointer(block), byteCount: count * MemoryLayout<T>.stride)
    }

    private mutating func takeChunk() {
        // The rest of the newest chunk goes on the free lists, largest blocks first.
        if var rest = cursor {
            var index = Self.classCount - 1
            while remaining >= Self.smallestBlock, index >= 0 {
                let size = Self.smallestBlock << index
                if remaining >= size {
                    rest.storeBytes(of: freeLists[index], as: UnsafeMutableRawPointer?.self)
                    freeLists[index] = rest
                    rest += size
                    remaining -= size
                } else {
                    index -= 1
                }
            }
        }
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkBytes, alignment: 64)
        if chunkCount == chunkCapacity {
            let larger = max(16, chunkCapacity * 2)
            let grown = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: larger)
            if let chunks {
                grown.moveInitialize(from: chunks, count: chunkCount)
                chunks.deallocate()
            }
            chunks = grown
            chunkCapacity = larger
        }
        (chunks! + chunkCount).initialize(to: chunk)
        chunkCount += 1
        cursor = chunk
        remaining = Self.chunkBytes
    }
}
