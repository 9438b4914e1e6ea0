/// Any request of the control protocol, as the daemon reads it from a frame.
public enum ControlRequest: Sendable, Equatable {
    /// `{"cmd": "status"}`.
    case status(StatusRequest)
    /// `{"cmd": "sessions", ...}`.
    case sessions(SessionsRequest)
    /// `{"cmd": "session", "id": ...}`.
    case session(SessionRequest)
    /// `{"cmd": "rules"}`.
    case rules(RulesRequest)
    /// `{"cmd": "reload"}`.
    case reload(ReloadRequest)
    /// `{"cmd": "violations", ...}`.
    case violations(ViolationsRequest)

    /// The commands, as refusals list them.
    public static let commands = "status, sessions, session, rules, reload, violations"

    private static let notJSON = ControlRefusal(
        "the request is not valid JSON; send an object such as {\"cmd\": \"status\"}"
    )

    /// The request one frame holds; a refusal (never a trap) for anything malformed: not JSON,
    /// not an object, another protocol version, no `cmd` or an unknown one, a known field of the
    /// wrong type or out of range. Fields a command does not know are ignored.
    public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(ControlRefusal) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw Self.notJSON
        }
        guard case .object(let object) = value else {
            // A bare string or number is not a JSON text here (as JSONSerialization, which read
            // requests before, has it): the same sentence as for anything else that is not JSON.
            if value.arrayValue == nil { throw Self.notJSON }
            throw ControlRefusal("the request must be a JSON object such as {\"cmd\": \"status\"}")
        }
        if let version = object["v"], version.wholeNumber != ModalwatchVersion.controlProtocol {
            throw ControlRefusal(
                "unsupported protocol version \(version.text); this daemon speaks v\(ModalwatchVersion.controlProtocol)"
            )
        }
        guard let command = object["cmd"]?.stringValue else {
            throw ControlRefusal("missing \"cmd\"; commands: \(Self.commands)")
        }
        let fields = ControlRequestFields(fields: object)
        switch command {
        case StatusRequest.name: self = .status(StatusRequest())
        case SessionsRequest.name: self = .sessions(try SessionsRequest(fields))
        case SessionRequest.name: self = .session(try SessionRequest(fields))
        case RulesRequest.name: self = .rules(RulesRequest())
        case ReloadRequest.name: self = .reload(ReloadRequest())
        case ViolationsRequest.name: self = .violations(try ViolationsRequest(fields))
        default: throw ControlRefusal("unknown command '\(command)'; commands: \(Self.commands)")
        }
    }

    /// The request one frame holds (see ``init(parsing:)-(UnsafeBufferPointer<UInt8>)``).
    public init(parsing bytes: [UInt8]) throws(ControlRefusal) {
        self = try bytes.withUnsafeBufferPointer { buffer throws(ControlRefusal) in try ControlRequest(parsing: buffer)
        }
    }

    /// The request as one frame.
    public func encoded() -> [UInt8] {
        switch self {
        case .status(let request): request.encoded()
        case .sessions(let request): request.encoded()
        case .session(let request): request.encoded()
        case .rules(let request): request.encoded()
        case .reload(let request): request.encoded()
        case .violations(let request): request.encoded()
        }
    }
}
