/// The `sessions` column of `segment_session_sets`: the sessions of one segment and where each
/// one's records are, integers little-endian:
///
/// | bytes | field |
/// |---|---|
/// | 4 | `n`, the distinct session hashes |
/// | 8 × n | the FNV-1a 64 hashes of the sessions' ids, ascending |
/// | 4 × n | for each hash, the end of its places (places of hashes up to and including it) |
/// | 8 × places | per place: the record's index in the segment, its byte offset in `segments.records` (4 bytes each); a hash's places oldest first |
///
/// Two sessions of a segment with the same hash share one entry (a query compares the session's text).
struct SessionSet {
    private let bytes: UnsafeRawBufferPointer

    /// Reads `bytes` (a `sessions` column).
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The places of `hash` (8 bytes each, as in the column), or nil when the set does not hold it
    /// (or does not read as a set).
    func places(of hash: UInt64) -> UnsafeRawBufferPointer? {
        guard bytes.count >= 4 else { return nil }
        let n = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
        let placesStart = 4 + n * 12
        guard n > 0, placesStart <= bytes.count else { return nil }
        var low = 0, high = n
        while low < high {
            let middle = (low + high) >> 1
            let found = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 + middle * 8, as: UInt64.self))
            if found < hash { low = middle + 1 } else { high = middle }
        }
        guard low < n, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 + low * 8, as: UInt64.self)) == hash else { return nil }
        func end(_ index: Int) -> Int {
            Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 + n * 8 + index * 4, as: UInt32.self)))
        }
        let start = low == 0 ? 0 : end(low - 1)
        let stop = end(low)
        guard start <= stop, placesStart + stop * 8 <= bytes.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[(placesStart + start * 8)..<(placesStart + stop * 8)])
    }
}
