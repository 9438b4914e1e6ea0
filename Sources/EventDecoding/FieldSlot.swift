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

    var start: Int
    var end: Int
    var kind: Kind
    var escaped: Bool
    /// For `.integer`: its value.
    var integer: Int64 = 0

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
