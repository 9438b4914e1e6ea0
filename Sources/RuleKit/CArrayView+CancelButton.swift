import AlertText
public import ModalwatchABI

extension CArrayView where Record == mw_button, Element == Button {
    /// The index of the presentation's *cancel button* as rules.md (catalogue v1.2) defines
    /// it: the first button with style `cancel`; when no button has that style, the first
    /// `default`-style button titled the language's Cancel (`Cancel` in any case; in another
    /// language also its standard Cancel titles, `EventLanguage.isCancelTitle`). `locale` is
    /// the presentation's language (`RuleCall.locale`; absent: English). Nil when there is neither.
    public func cancelIndex(locale: Text) -> Int? {
        if let styled = firstIndex(where: { $0.style == .cancel }) { return styled }
        return firstIndex(where: { $0.style == .default && EventLanguage.isCancelTitle($0.title.raw, locale.raw) })
    }

    /// True when the button at `index` is a cancel button (rules.md): it has style `cancel`,
    /// or no button has that style and it is the one `cancelIndex(locale:)` names by its title.
    public func isCancelButton(_ index: Int, locale: Text) -> Bool {
        if self[index].style == .cancel { return true }
        guard !contains(where: { $0.style == .cancel }) else { return false }
        return cancelIndex(locale: locale) == index
    }

    /// How many cancel buttons the presentation has: its buttons with style `cancel`, or,
    /// when it has none, 1 when a `default`-style button is titled the language's Cancel, else 0.
    public func cancelCount(locale: Text) -> Int {
        let styled = reduce(0) { $0 + ($1.style == .cancel ? 1 : 0) }
        if styled > 0 { return styled }
        return cancelIndex(locale: locale) == nil ? 0 : 1
    }
}
