public import ByteBasics

/// UTF-8 bytes kept inline up to `inlineCapacity` and on the heap beyond: the bytes
/// of an evidence object or a message, which rarely need the heap, so that building
/// a report allocates nothing.
@usableFromInline
struct SmallBytes: Sendable {
    /// 31 words: 248 bytes.
    @usableFromInline typealias Storage = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    )

    /// Bytes held without allocating.
    @usableFromInline static let inlineCapacity = 248

    @usableFromInline var storage: Storage = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
    /// The bytes in `storage`, while `heap` is not in use.
    @usableFromInline var inlineCount = 0
    /// All the bytes, once they outgrew `storage`.
    @usableFromInline var heap: [UInt8]? = nil

    /// No bytes.
    @inlinable init() {}

    /// The number of bytes.
    var count: Int { heap?.count ?? inlineCount }

    /// True without bytes.
    var isEmpty: Bool { count == 0 }

    /// Appends `bytes`.
    @inlinable
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if heap == nil, inlineCount + bytes.count <= SmallBytes.inlineCapacity {
            let offset = inlineCount
            withUnsafeMutableBytes(of: &storage) { raw in
                ShortCopy.copy(to: raw.baseAddress! + offset, from: UnsafeRawPointer(source), count: bytes.count)
            }
            inlineCount += bytes.count
            return
        }
        spill(adding: bytes.count)
        heap!.append(contentsOf: bytes)
    }

    /// Appends one byte.
    @inlinable
    mutating func append(_ byte: UInt8) {
        if heap == nil, inlineCount < SmallBytes.inlineCapacity {
            let offset = inlineCount
            withUnsafeMutableBytes(of: &storage) { raw in raw[offset] = byte }
            inlineCount += 1
            return
        }
        spill(adding: 1)
        heap!.append(byte)
    }

    /// Replaces the last byte (there must be one).
    mutating func replaceLast(with byte: UInt8) {
        if heap != nil {
            heap![heap!.count - 1] = byte
        } else {
            let offset = inlineCount - 1
            withUnsafeMutableBytes(of: &storage) { raw in raw[offset] = byte }
        }
    }

    /// Runs `body` with the bytes.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let heap { return try heap.withUnsafeBufferPointer(body) }
        let count = inlineCount
        // Borrowed in place: no copy of the 248 bytes.
        return try withUnsafeBytes(of: storage) { raw in
            try raw.withMemoryRebound(to: UInt8.self) { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// The bytes as an array (allocates).
    var array: [UInt8] { withBytes { Array($0) } }

    /// Moves the inline bytes to the heap, with room for `more`.
    @usableFromInline
    mutating func spill(adding more: Int) {
        guard heap == nil else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(2 * SmallBytes.inlineCapacity, inlineCount + more))
        withBytes { bytes.append(contentsOf: $0) }
        heap = bytes
        inlineCount = 0
    }
}

/// Where the JSON and message writers put bytes: a `[UInt8]` or a `SmallBytes`.
@usableFromInline
protocol ByteSink {
    /// Appends `bytes`.
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Appends one byte.
    mutating func appendByte(_ byte: UInt8)
}

extension SmallBytes: ByteSink {
    @usableFromInline mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
    @usableFromInline mutating func appendByte(_ byte: UInt8) { append(byte) }
}

extension Array: ByteSink where Element == UInt8 {
    @usableFromInline mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
    @usableFromInline mutating func appendByte(_ byte: UInt8) { append(byte) }
}
