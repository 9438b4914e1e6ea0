/// Where pass 1 found a field's value: its kind and byte range in the payload.
///
/// For a string, `start..<end` is its content without the quotes, and `escaped` says whether it holds
/// backslash escapes. For anything else it is the whole value.
struct FieldSlot {
    /// The JSON kind of a value, from its first byte.
    enum Kind: UInt8 {
        case string, number, trueValue, falseValue, null, array, object
    }

    var start: Int
    var end: Int
    var kind: Kind
    var escaped: Bool

    static let empty = FieldSlot(start: 0, end: 0, kind: .null, escaped: false)
}
