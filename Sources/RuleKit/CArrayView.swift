/// A random-access view of a C array the host passed in, valid during the call;
/// `Element` is a Swift view made from each C record.
public struct CArrayView<Record, Element>: RandomAccessCollection {
    private let base: UnsafePointer<Record>?
    private let length: Int
    private let wrap: (Record) -> Element

    /// Wraps `count` records at `base` (nil with count 0 is the empty view).
    public init(_ base: UnsafePointer<Record>?, count: Int, wrap: @escaping (Record) -> Element) {
        self.base = base
        self.length = base == nil ? 0 : count
        self.wrap = wrap
    }

    /// 0
    public var startIndex: Int { 0 }
    /// The number of records.
    public var endIndex: Int { length }

    /// The element at `position`.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < length, "index out of range")
        return wrap(base.unsafelyUnwrapped[position])
    }
}
