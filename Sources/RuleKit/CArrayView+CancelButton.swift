public import ModalwatchABI

extension CArrayView where Record == mw_button, Element == Button {
    /// The index of the presentation's *cancel button* as rules.md (catalogue v1.1) defines
    /// it: the first button with style `cancel`; when no button has that style, the first
    /// `default`-style button titled `Cancel` in any case. Nil when there is neither.
    public var cancelIndex: Int? {
        if let styled = firstIndex(where: { $0.style == .cancel }) { return styled }
        return firstIndex(where: { $0.style == .default && $0.title.equalsIgnoringASCIICase("cancel") })
    }

    /// True when the button at `index` is a cancel button (rules.md): it has style `cancel`,
    /// or no button has that style and it is the one `cancelIndex` names by its title.
    public func isCancelButton(_ index: Int) -> Bool {
        if self[index].style == .cancel { return true }
        guard !contains(where: { $0.style == .cancel }) else { return false }
        return cancelIndex == index
    }

    /// How many cancel buttons the presentation has: its buttons with style `cancel`, or,
    /// when it has none, 1 when a `default`-style button is titled `Cancel`, else 0.
    public var cancelCount: Int {
        let styled = reduce(0) { $0 + ($1.style == .cancel ? 1 : 0) }
        if styled > 0 { return styled }
        return cancelIndex == nil ? 0 : 1
    }
}
