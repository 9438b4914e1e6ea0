import Foundation

/// Reading a field back out of a violation's JSON, off the hot path (docs, tests, the CLI).
public enum ViolationFields: Sendable {
    /// The string field `name` of the JSON object `json`, if there is one.
    public static func string(_ name: String, in json: UnsafeRawBufferPointer) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return nil }
        return object[name] as? String
    }
}
