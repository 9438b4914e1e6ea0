/// Why an event was rejected; the raw values are the `reason` of a diagnostic (violations.md).
public enum RejectReason: String, Sendable, CaseIterable {
    /// Not valid JSON (RFC 8259, UTF-8), not an object, nested too deep, or an empty payload.
    case malformedJSON = "malformed_json"
    /// A field the schema requires is absent.
    case missingField = "missing_field"
    /// A field has the wrong type, is not one of its enumerated values, or is out of range.
    case badField = "bad_field"
    /// A limit is broken: event, payload, batch, string or array size.
    case tooLarge = "too_large"
}
