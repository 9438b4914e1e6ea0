public import ModalwatchABI

/// A non-owning view of a UTF-8 string the host passed in (`mw_str`): valid only
/// during the `on_event` call it came with. Comparing, trimming and hashing it
/// never allocates; `string` copies it into a Swift `String` when one is needed.
public struct Text {
    /// The C slice; `ptr == nil` means absent or JSON null.
    public let raw: mw_str

    /// Wraps a C slice.
    @inlinable
    public init(_ raw: mw_str) { self.raw = raw }

    /// Wraps a byte buffer (which must outlive every use of the view).
    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        raw = mw_str(
            ptr: bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
            len: bytes.count
        )
    }

    /// Absent (JSON null): `subject: .absent` reports a violation about no presentation.
    @inlinable
    public static var absent: Text { Text(mw_str(ptr: nil, len: 0)) }

    /// True when the field was absent or JSON null.
    @inlinable
    public var isAbsent: Bool { raw.ptr == nil }

    /// True when absent or empty.
    @inlinable
    public var isEmpty: Bool { raw.ptr == nil || raw.len == 0 }

    /// The number of UTF-8 bytes (0 when absent).
    @inlinable
    public var count: Int { raw.ptr == nil ? 0 : raw.len }

    /// The bytes (empty when absent).
    @inlinable
    public var bytes: UnsafeBufferPointer<UInt8> {
        guard let ptr = raw.ptr, raw.len > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: UnsafeRawPointer(ptr).assumingMemoryBound(to: UInt8.self), count: raw.len)
    }

    /// A copy as a Swift `String`, or nil when absent (allocates for long strings).
    public var string: String? {
        guard raw.ptr != nil else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when the bytes equal `literal` exactly (absent equals nothing).
    public static func == (lhs: Text, rhs: StaticString) -> Bool {
        guard !lhs.isAbsent, rhs.hasPointerRepresentation else { return false }
        return Text.same(lhs.bytes, UnsafeBufferPointer(start: rhs.utf8Start, count: rhs.utf8CodeUnitCount))
    }

    /// True when the bytes differ from `literal` (or the text is absent).
    public static func != (lhs: Text, rhs: StaticString) -> Bool { !(lhs == rhs) }

    /// True when both are present and byte for byte equal.
    public func equals(_ other: Text) -> Bool {
        !isAbsent && !other.isAbsent && Text.same(bytes, other.bytes)
    }

    /// Byte equality: the lengths first, then a plain loop (no generic sequence walk).
    @inline(__always)
    static func same(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lhs[index] != rhs[index] { return false }
        return true
    }

    /// True when the text equals `literal` ignoring ASCII case (e.g. `"cancel"` matches `Cancel`).
    public func equalsIgnoringASCIICase(_ literal: StaticString) -> Bool {
        guard !isAbsent, literal.hasPointerRepresentation, count == literal.utf8CodeUnitCount else { return false }
        let other = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return zip(bytes, other).allSatisfy { Text.asciiLower($0) == Text.asciiLower($1) }
    }

    static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
