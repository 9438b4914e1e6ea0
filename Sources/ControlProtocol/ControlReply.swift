/// Writing and reading whole replies: `{"ok": true, "v": 1, ...fields}` or
/// `{"ok": false, "v": 1, "error": "..."}` (docs/control-protocol.md), compact, keys sorted.
public enum ControlReply: Sendable {
    /// Why a reply could not be read as the one expected.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The daemon answered `{"ok": false, "error": ...}`: the sentence.
        case refused(String)
        /// Not JSON, not an object, or a field missing or of the wrong type.
        case malformed(String)

        /// One line.
        public var description: String {
            switch self {
            case .refused(let text), .malformed(let text): text
            }
        }
    }

    /// A reply that did what was asked, as one frame.
    public static func encode(_ body: some ControlReplyBody) -> [UInt8] {
        encode(fields: body.fields)
    }

    /// A reply with these fields, `"ok": true` and `"v"`, as one frame.
    public static func encode(fields: [String: JSONValue]) -> [UInt8] {
        var object = fields
        object["ok"] = .bool(true)
        object["v"] = .int(ModalwatchVersion.controlProtocol)
        return JSONWriter.encode(object)
    }

    /// A refusal, as one frame.
    public static func refusal(_ refusal: ControlRefusal) -> [UInt8] {
        JSONWriter.encode(
            ["ok": .bool(false), "v": .int(ModalwatchVersion.controlProtocol), "error": .string(refusal.message)],
            capacity: 256
        )
    }

    /// The fields of a reply frame that says `"ok": true`.
    public static func fields(of bytes: [UInt8]) throws(Failure) -> JSONFields {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw .malformed("the reply is not JSON (\(error))")
        }
        guard case .object(let object) = value else { throw .malformed("the reply is not a JSON object") }
        guard object["ok"]?.boolValue == true else {
            throw .refused(object["error"]?.stringValue ?? "the daemon refused the request")
        }
        return JSONFields(fields: object, context: "the reply")
    }

    /// A reply frame read as `Body`.
    public static func decode<Body: ControlReplyBody>(_ bytes: [UInt8], as body: Body.Type) throws(Failure) -> Body {
        let fields = try fields(of: bytes)
        do {
            return try Body(fields: fields)
        } catch {
            throw .malformed("the reply does not read as \(Body.self): \(error.message)")
        }
    }
}
