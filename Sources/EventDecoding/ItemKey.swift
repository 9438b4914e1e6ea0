/// The fields of an array item: a button, a modal button, or a text field.
enum ItemKey: UInt8, CaseIterable, WireKey {
    case title, style, preferred, role, secure

    /// The bit of this field in a presence mask.
    @inline(__always) var bit: UInt32 { 1 &<< UInt32(rawValue) }

    static var isTopLevel: Bool { false }
    static var guessBase: Int { KeyGuess.itemBase }
    static var guessFirst: Int { KeyGuess.firstItemMember }

    var name: StaticString {
        switch self {
        case .title: "title"
        case .style: "style"
        case .preferred: "preferred"
        case .role: "role"
        case .secure: "secure"
        }
    }

    /// The field `key` names, by word compares like `FieldKey.match`.
    @inline(__always)
    static func match(_ key: KeyWords) -> ItemKey? {
        switch key.count {
        case 4: return key.w0 == 0x656c_6f72 ? .role : nil
        case 5:
            switch key.w0 {
            case 0x65_6c74_6974: return .title
            case 0x65_6c79_7473: return .style
            default: return nil
            }
        case 6: return key.w0 == 0x6572_7563_6573 ? .secure : nil
        case 9: return key.w0 == 0x6572_7265_6665_7270 && key.w1 == 0x64 ? .preferred : nil
        default: return nil
        }
    }
}
