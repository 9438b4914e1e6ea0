/// The decoder's internal error: small, allocation-free, thrown with typed throws.
///
/// The human detail is built from it only when a `Rejection` is made.
struct DecodeError: Error {
    /// What kind of problem, with what it needs to be described.
    enum Problem {
        /// Not valid JSON: what was wrong.
        case syntax(StaticString)
        /// A required field is absent.
        case missing
        /// A field breaks its requirement, e.g. "must be an integer >= 0".
        case requirement(StaticString)
        /// A field is not one of an enumeration's values.
        case oneOf(WireEnum)
        /// A string is longer than `limit` bytes.
        case tooLong(limit: Int)
        /// An array has more than `limit` items.
        case tooMany(limit: Int)
        /// The event object is `size` bytes, over `limit`.
        case eventTooLarge(size: Int, limit: Int)
        /// The batch already had `limit` events.
        case batchFull(limit: Int)
    }

    var reason: RejectReason
    var problem: Problem
    /// Byte offset in the payload.
    var offset: Int
    /// The top-level field at fault.
    var field: StaticString?
    /// For a field inside an array item: the item's index.
    var item: Int = -1
    /// For a field inside an array item: its name.
    var subfield: StaticString?

    /// Malformed JSON found at `offset`.
    static func syntax(_ what: StaticString, at offset: Int) -> DecodeError {
        DecodeError(reason: .malformedJSON, problem: .syntax(what), offset: offset)
    }

    /// The human detail, e.g. `field 'buttons[2].style' must be one of default, cancel, destructive`.
    var detail: String {
        var path = ""
        if let field {
            path = field.description
            if item >= 0 { path += "[\(item)]" }
            if let subfield { path += "." + subfield.description }
        }
        switch problem {
        case .syntax(let what):
            return "invalid JSON: \(what) at byte \(offset)"
        case .missing:
            return "field '\(path)' is required"
        case .requirement(let what):
            return "field '\(path)' \(what)"
        case .oneOf(let enumeration):
            return "field '\(path)' must be one of " + enumeration.values.map(\.description).joined(separator: ", ")
        case .tooLong(let limit):
            return "field '\(path)' is longer than \(limit) bytes"
        case .tooMany(let limit):
            return "field '\(path)' has more than \(limit) items"
        case .eventTooLarge(let size, let limit):
            return "event is \(size) bytes, over the limit of \(limit)"
        case .batchFull(let limit):
            return "batch has more than \(limit) events"
        }
    }
}
