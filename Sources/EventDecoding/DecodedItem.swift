public import ModalwatchABI

/// What the decoder hands over for each event of a payload, in order.
public enum DecodedItem {
    /// A valid event. The pointer, and every `mw_str` and array inside it, is valid only during the
    /// callback: it points into the payload or into the decoder's scratch storage.
    case event(UnsafePointer<mw_event>)
    /// An event the decoder rejected.
    case rejected(Rejection)
}

/// Not `Sendable`: its pointers are valid only during the decoder's callback.
@available(*, unavailable)
extension DecodedItem: Sendable {}
