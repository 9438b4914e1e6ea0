import Foundation

/// Reading a field back out of a violation's JSON, off the hot path (docs, tests, the CLI).
public enum ViolationFields: Sendable {
    /// The string field `name` of the JSON object `json`, if there is one.
    public static func string(_ name: String, in json: UnsafeRawBufferPointer) -> String? {
        let decoder = JSONDecoder()
        decoder.userInfo[StringField.name] = name
        return (try? decoder.decode(StringField.self, from: Data(json)))?.value
    }
}

/// One string member of a JSON object, named by the decoder's `userInfo`.
private struct StringField: Decodable {
    static let name = CodingUserInfoKey(rawValue: "field")!

    /// A key for any member name.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    let value: String?

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        guard let name = decoder.userInfo[Self.name] as? String else {
            value = nil
            return
        }
        value = try? object.decode(String.self, forKey: Key(stringValue: name))
    }
}
