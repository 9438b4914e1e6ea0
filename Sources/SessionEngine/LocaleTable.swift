import EventDecoding
import Glibc
import ModalwatchABI

/// The distinct `locale` tags sessions gave (normalized by the decoder), each stored once: a
/// session keeps its tag's number (`SessionRecord.locale`, 0 for none), and the events of the
/// session are judged with the stored bytes. Allocated once; a tag new to the table is copied in,
/// nothing else. Past `capacity` tags a new one is not kept (the session's language is then
/// undetermined) and counted.
///
/// Tags come from events, so a tag's slot is keyed with the process's secret: the `Hasher`
/// (SipHash, seeded per process) of its bytes. With a public hash (FNV-1a) a producer could
/// send `capacity` tags solved to share one probe run, and every later session start of one of
/// them would read a slot and compare a tag for each earlier one.
final class LocaleTable {
    /// The most distinct tags kept.
    static let capacity = 1024
    private static let slotCount = 2048
    private static let stride = LocaleTag.maxBytes

    private let storage: UnsafeMutablePointer<UInt8>
    private let lengths: UnsafeMutablePointer<UInt8>
    /// Open addressing by the keyed hash of the tag (`firstSlot`): a tag's number, 0 for an empty slot.
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
        var slot = Self.firstSlot(UnsafeRawBufferPointer(start: pointer, count: tag.len))
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

    /// The slot a lookup of `bytes` starts at: the process's keyed hash of them.
    @inline(__always)
    private static func firstSlot(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize() & (slotCount - 1)
    }

    /// How many slots a lookup of `tag` reads (1: its first slot), for the tests of the keyed
    /// hash.
    func probes(_ tag: [UInt8]) -> Int {
        tag.withUnsafeBytes { bytes in
            var slot = Self.firstSlot(bytes)
            var read = 1
            while slots[slot] != 0 {
                let index = Int(slots[slot]) - 1
                if Int(lengths[index]) == bytes.count,
                    memcmp(storage + index * Self.stride, bytes.baseAddress!, bytes.count) == 0
                {
                    break
                }
                slot = (slot + 1) & (Self.slotCount - 1)
                read += 1
            }
            return read
        }
    }

    /// The stored tag of `number` (absent for 0).
    func tag(_ number: UInt16) -> mw_str {
        guard number != 0 else { return mw_str(ptr: nil, len: 0) }
        let index = Int(number) - 1
        return mw_str(
            ptr: UnsafeRawPointer(storage + index * Self.stride).assumingMemoryBound(to: CChar.self),
            len: Int(lengths[index])
        )
    }
}
