import ByteBasics

/// Which enumeration of wire format v1 a field holds: a tag over ByteBasics' wire vocabulary
/// (`WireValue`), which has the spellings and their matching. A value's index is its C enum value
/// in modalwatch_module.h.
enum WireEnum: UInt8, CaseIterable {
    case eventType, device, sizeClass, control, taskState, buttonStyle, modalRole, via, modalStyle, transition

    /// The values in the header's order, for a rejection's detail. For `eventType`, index + 1 is the
    /// `mw_event_type`.
    var values: [StaticString] {
        switch self {
        case .eventType: WireEventType.allCases.map(\.name)
        case .device: WireDevice.allCases.map(\.name)
        case .sizeClass: WireSizeClass.allCases.map(\.name)
        case .control: WireControl.allCases.map(\.name)
        case .taskState: WireTaskState.allCases.map(\.name)
        case .buttonStyle: WireButtonStyle.allCases.map(\.name)
        case .modalRole: WireModalRole.allCases.map(\.name)
        case .via: WireVia.allCases.map(\.name)
        case .modalStyle: WireModalStyle.allCases.map(\.name)
        case .transition: WireTransition.allCases.map(\.name)
        }
    }

    /// The index of the value spelled by the `count` bytes at `bytes`, or nil: the vocabulary's
    /// perfect hash, then one compare.
    @inline(__always)
    func index(of bytes: UnsafePointer<UInt8>, _ count: Int) -> Int? {
        guard let words = WireWords(bytes, count) else { return nil }
        return index(of: words)
    }

    /// The index of the value whose bytes are `words`, or nil.
    @inline(__always)
    func index(of words: WireWords) -> Int? {
        switch self {
        case .eventType: WireEventType.match(words).map { Int($0.rawValue) &- 1 }
        case .device: WireDevice.match(words).map { Int($0.rawValue) }
        case .sizeClass: WireSizeClass.match(words).map { Int($0.rawValue) }
        case .control: WireControl.match(words).map { Int($0.rawValue) }
        case .taskState: WireTaskState.match(words).map { Int($0.rawValue) }
        case .buttonStyle: WireButtonStyle.match(words).map { Int($0.rawValue) }
        case .modalRole: WireModalRole.match(words).map { Int($0.rawValue) }
        case .via: WireVia.match(words).map { Int($0.rawValue) }
        case .modalStyle: WireModalStyle.match(words).map { Int($0.rawValue) }
        case .transition: WireTransition.match(words).map { Int($0.rawValue) }
        }
    }
}
