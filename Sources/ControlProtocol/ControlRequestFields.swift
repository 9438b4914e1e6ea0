/// Reads a request's fields as docs/control-protocol.md says: `null` is as good as absent;
/// a known field of the wrong type or out of range is refused with one sentence naming it.
struct ControlRequestFields {
    let fields: [String: JSONValue]

    private func present(_ key: String) -> JSONValue? {
        guard let value = fields[key], !value.isNull else { return nil }
        return value
    }

    /// A string, or nil when absent.
    func string(_ key: String) throws(ControlRefusal) -> String? {
        guard let value = present(key) else { return nil }
        guard let text = value.stringValue else { throw ControlRefusal("\(key) must be a string") }
        return text
    }

    /// `true` or `false`; false when absent.
    func flag(_ key: String) throws(ControlRefusal) -> Bool {
        guard let value = present(key) else { return false }
        guard let flag = value.boolValue else { throw ControlRefusal("\(key) must be true or false") }
        return flag
    }

    /// A whole number in `range` (never a fraction, `1.0` or a boolean); `fallback` when absent.
    func whole(_ key: String, default fallback: Int, range: ClosedRange<Int>) throws(ControlRefusal) -> Int {
        guard let value = present(key) else { return fallback }
        guard let number = value.wholeNumber else { throw ControlRefusal("\(key) must be a whole number") }
        guard range.contains(number) else {
            throw ControlRefusal(
                range.lowerBound == 0 && number < 0
                    ? "\(key) must be 0 or more" : "\(key) must be \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return number
    }
}
