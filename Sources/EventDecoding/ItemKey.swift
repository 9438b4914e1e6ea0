/// The fields of an array item: a button, a modal button, or a text field.
enum ItemKey: UInt8, CaseIterable, WireKey {
    case title, style, preferred, role, secure

    /// The bit of this field in a presence mask.
    @inline(__always) var bit: UInt32 { 1 << UInt32(rawValue) }

    static var isTopLevel: Bool { false }

    var name: StaticString {
        switch self {
        case .title: "title"
        case .style: "style"
        case .preferred: "preferred"
        case .role: "role"
        case .secure: "secure"
        }
    }

    @inline(__always)
    static func match(_ p: UnsafePointer<UInt8>, _ n: Int) -> ItemKey? {
        switch n {
        case 4: return ItemKey.role.name.isSpelled(by: p, n) ? .role : nil
        case 5:
            if ItemKey.title.name.isSpelled(by: p, n) { return .title }
            return ItemKey.style.name.isSpelled(by: p, n) ? .style : nil
        case 6: return ItemKey.secure.name.isSpelled(by: p, n) ? .secure : nil
        case 9: return ItemKey.preferred.name.isSpelled(by: p, n) ? .preferred : nil
        default: return nil
        }
    }
}
