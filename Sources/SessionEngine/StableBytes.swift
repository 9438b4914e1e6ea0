import Glibc
import ModalwatchABI

/// Bytes at an address that never moves, for the C views handed to rules.
final class StableBytes {
    let pointer: UnsafeMutablePointer<UInt8>
    let count: Int

    init(_ bytes: some Collection<UInt8>) {
        count = bytes.count
        pointer = .allocate(capacity: max(count, 1))
        _ = UnsafeMutableBufferPointer(start: pointer, count: count).initialize(from: bytes)
    }

    init(copying buffer: UnsafeRawBufferPointer) {
        count = buffer.count
        pointer = .allocate(capacity: max(count, 1))
        if count > 0 { pointer.update(from: buffer.bindMemory(to: UInt8.self).baseAddress!, count: count) }
    }

    deinit { pointer.deallocate() }

    /// The bytes as an `mw_str`.
    var str: mw_str {
        mw_str(ptr: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self), len: count)
    }

    /// The bytes as a raw buffer.
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: pointer, count: count) }

    /// Whether the bytes equal `other`.
    func equals(_ other: UnsafeRawBufferPointer) -> Bool { Self.equal(pointer, count, other) }

    /// Whether the `count` bytes at `start` equal `other`.
    @inline(__always)
    static func equal(_ start: UnsafeMutablePointer<UInt8>, _ count: Int, _ other: UnsafeRawBufferPointer) -> Bool {
        other.count == count && (count == 0 || memcmp(start, other.baseAddress!, count) == 0)
    }

    /// The bytes as a String.
    var string: String { String(decoding: buffer, as: UTF8.self) }
}
