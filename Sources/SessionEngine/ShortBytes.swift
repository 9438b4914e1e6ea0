import Glibc

/// Comparing and copying the short byte strings of the per-event path (session ids, app
/// names, presentation ids, titles kept in the journal) in place: eight bytes at a time,
/// the last eight overlapping those before, with no call into libc below `inlineLimit`
/// bytes (`memcmp` and `memcpy` above it).
enum ShortBytes {
    /// The longest string compared or copied in place.
    static let inlineLimit = 64

    /// Whether the `count` bytes at `a` and at `b` are equal.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        if count >= 8 {
            if count > inlineLimit { return memcmp(a, b, count) == 0 }
            var offset = 0
            while offset < count - 8 {
                if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                    return false
                }
                offset += 8
            }
            return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        if count >= 2 {
            return a.loadUnaligned(as: UInt16.self) == b.loadUnaligned(as: UInt16.self)
                && a.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self) == b.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
        }
        return count == 0 || a.load(as: UInt8.self) == b.load(as: UInt8.self)
    }

    /// Copies `count` bytes from `source` to `destination` (which must not overlap).
    @inline(__always)
    static func copy(to destination: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int) {
        if count >= 8 {
            if count > inlineLimit {
                destination.copyMemory(from: source, byteCount: count)
                return
            }
            var offset = 0
            while offset < count - 8 {
                destination.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            destination.storeBytes(of: first, as: UInt32.self)
            destination.storeBytes(of: last, toByteOffset: count - 4, as: UInt32.self)
        } else if count >= 2 {
            let first = source.loadUnaligned(as: UInt16.self)
            let last = source.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
            destination.storeBytes(of: first, as: UInt16.self)
            destination.storeBytes(of: last, toByteOffset: count - 2, as: UInt16.self)
        } else if count == 1 {
            destination.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
        }
    }
}
