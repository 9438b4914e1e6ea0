/// A random-access view of a C array the host passed in, valid during the call;
/// `Element` is a Swift view made from each C record (`Element.init(_:)`).
///
/// The view is two words (the records' address and count) and keeps no closure:
/// walking it counts no references and allocates nothing.
public struct CArrayView<Record, Element: CRecordView>: RandomAccessCollection where Element.Record == Record {
    @usableFromInline let base: UnsafePointer<Record>?
    @usableFromInline let length: Int

    /// Views `count` records at `base` (nil with count 0 is the empty view).
    @inlinable
    public init(_ base: UnsafePointer<Record>?, count: Int) {
        self.base = base
        self.length = base == nil ? 0 : count
    }

    /// 0
    @inlinable
    public var startIndex: Int { 0 }
    /// The number of records.
    @inlinable
    public var endIndex: Int { length }

    /// The element at `position`.
    @inlinable
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < length, "index out of range")
        return Element(base.unsafelyUnwrapped[position])
    }
}

/// A Swift view of one C record of the rule ABI (`Button` of an `mw_button`, …), as
/// `CArrayView` makes its elements.
public protocol CRecordView {
    /// The C record.
    associatedtype Record
    /// Views `raw`.
    init(_ raw: Record)
}

extension Button: CRecordView {}
extension ModalButton: CRecordView {}
extension Presentation: CRecordView {}
