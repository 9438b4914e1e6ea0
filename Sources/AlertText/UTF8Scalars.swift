import ByteBasics

/// Walks the Unicode scalars of a UTF-8 buffer with their byte offsets, without
/// allocating. A byte that does not start a valid UTF-8 sequence reads as U+FFFD
/// (one byte wide), so any input can be walked.
struct UTF8Scalars {
    /// The buffer walked.
    let bytes: UnsafeBufferPointer<UInt8>

    /// The scalar at `offset` (which must be below `bytes.count`) and its width in bytes.
    func scalar(at offset: Int) -> (scalar: Unicode.Scalar, width: Int) {
        UTF8Decoding.scalar(in: bytes, at: offset)
    }

    /// The scalar that ends just before `offset` (which must be above 0) and its start offset.
    func scalar(before offset: Int) -> (scalar: Unicode.Scalar, start: Int) {
        var start = offset - 1
        // Step back over at most three continuation bytes to the lead byte.
        while start > 0, offset - start < 4, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        let (scalar, width) = self.scalar(at: start)
        if start + width == offset { return (scalar, start) }
        // Not a well-formed sequence ending at `offset`: the last byte alone.
        return ("\u{FFFD}", offset - 1)
    }

    /// Calls `body` with each scalar and its byte range until it returns false.
    func forEach(_ body: (Unicode.Scalar, Int, Int) -> Bool) {
        var offset = 0
        while offset < bytes.count {
            let (scalar, width) = scalar(at: offset)
            if !body(scalar, offset, offset + width) { return }
            offset += width
        }
    }
}
