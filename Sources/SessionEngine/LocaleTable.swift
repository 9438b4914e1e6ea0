import EventDecoding
import Glibc
import ModalwatchABI

/// The distinct `locale` tags sessions gave (normalized by the decoder), each stored once: a
/// session keeps its tag's number (`SessionRecord.locale`, 0 for none), and the events of the
/// session are judged with the stored bytes. Allocated once; a tag new to the table is copied in,
/// nothing else. Past `capacity` tags a new one is not kept (the session's language is then
/// undetermined) and counted.
final class LocaleTable {
    /// The most distinct tags kept.
    static let capacity = 1024
    private static let slotCount = 2048
    private static let stride = LocaleTag.maxBytes

    private let storage: UnsafeMutablePointer<UInt8>
    private let lengths: UnsafeMutablePointer<UInt8>
    /// Open addressing by FNV-1a of the tag: a tag's number, 0 for an empty slot.
    private let slots: UnsafeMutablePointer<UInt16>
    /// Tags kept.
    private(set) var count = 0
    /// Tags not kept because the table was full.
    private(set) var refused: UInt64 = 0

    init() {
        storage = .allocate(capacity: Self.capacity * Self.stride)
        lengths = .allocate(capacity: Self.capacity)
        lengths.initialize(repeating: 0, count: Self.capacity)
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: 0, count: Self.slotCount)
    }

    deinit {
        storage.deallocate()
        lengths.deallocate()
        slots.deallocate()
    }

    /// The number of `tag` (1-based), kept if new; 0 for an absent tag, or a new one past `capacity`.
    func number(of tag: mw_str) -> UInt16 {
        guard let pointer = tag.ptr, tag.len > 0, tag.len <= Self.stride else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: tag.len)
        var slot = Int(truncatingIfNeeded: Hashing.fnv1a(bytes) & UInt64(Self.slotCount - 1))
        while true {
            let number = slots[slot]
            if number == 0 { break }
            let index = Int(number) - 1
            if Int(lengths[index]) == tag.len, memcmp(storage + index * Self.stride, pointer, tag.len) == 0 {
                return number
            }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        guard count < Self.capacity else {
            refused += 1
            return 0
        }
        UnsafeMutableRawPointer(storage + count * Self.stride).copyMemory(from: pointer, byteCount: tag.len)
        lengths[count] = UInt8(tag.len)
        count += 1
        slots[slot] = UInt16(count)
        return UInt16(count)
    }

    /// The stored tag of `number` (absent for 0).
    func tag(_ number: UInt16) -> mw_str {
        guard number != 0 else { return mw_str(ptr: nil, len: 0) }
        let index = Int(number) - 1
        return mw_str(
            ptr: UnsafeRawPointer(storage + index * Self.stride).assumingMemoryBound(to: CChar.self),
            len: Int(lengths[index]))
    }
}
