/// Where pass 1 found a field's value: its kind and byte range in the payload.
///
/// For a string, `start..<end` is its content without the quotes, and `escaped` says whether it holds
/// backslash escapes. For anything else it is the whole value.
struct FieldSlot {
    /// The JSON kind of a value, from its first byte.
    enum Kind: UInt8 {
        /// `integer`: a number of at most 18 digits, without fraction or exponent, read in the scan.
        case string, integer, number, trueValue, falseValue, null, array, object
    }

    /// For `.integer`: its value.
    var integer: Int64
    /// `start` and `end` as 32 bits (a payload is under 2 GiB: `EventLimits.maxPayloadBytes`, and
    /// `EventDecoder.decode` rejects any larger): a slot is 24 bytes, not 32.
    private var start32: Int32
    private var end32: Int32
    var kind: Kind
    var escaped: Bool

    @inline(__always) var start: Int { Int(start32) }
    @inline(__always) var end: Int { Int(end32) }

    @inline(__always)
    init(start: Int, end: Int, kind: Kind, escaped: Bool, integer: Int64 = 0) {
        self.integer = integer
        start32 = Int32(truncatingIfNeeded: start)
        end32 = Int32(truncatingIfNeeded: end)
        self.kind = kind
        self.escaped = escaped
    }

    static let empty = FieldSlot(start: 0, end: 0, kind: .null, escaped: false)

    /// For a number: its value read as an integer (`JSONNumber.integer`); nil for anything else.
    @inline(__always)
    func integerValue(in base: UnsafePointer<UInt8>) -> JSONNumber.Integer? {
        switch kind {
        case .integer: .value(integer)
        case .number: JSONNumber.integer(base, start, end)
        default: nil
        }
    }
}
