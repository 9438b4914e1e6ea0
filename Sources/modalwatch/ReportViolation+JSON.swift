import ByteBasics
import ControlProtocol
import Report
import RuleHost

extension ReportViolation {
    /// The violation's suggestion and the corrected form its evidence gives
    /// (`suggested_title`, `suggested_message`, `suggested_buttons`), from its JSON object.
    static func suggestion(of object: JSONValue) -> (suggestion: String?, corrected: CorrectedPresentation?) {
        let evidence = object["evidence"]
        let buttons = evidence?["suggested_buttons"]?.arrayValue?.compactMap(\.stringValue)
        let corrected = CorrectedPresentation(
            title: evidence?["suggested_title"]?.stringValue,
            message: evidence?["suggested_message"]?.stringValue,
            buttons: buttons
        )
        return (object["suggestion"]?.stringValue, corrected)
    }

    /// What the violation's subject is: the kind of the presented or dismissed event among its
    /// `events` that has the subject's id (violations.md), nil when none has.
    static func subjectKind(of object: JSONValue) -> PresentationKind? {
        guard let subject = object["subject"]?.stringValue, let events = object["events"]?.arrayValue else {
            return nil
        }
        for event in events where event["id"]?.stringValue == subject {
            if let type = event["type"]?.stringValue.flatMap({ WireEventType.match($0) }),
                let kind = PresentationKind(eventType: type.rawValue)
            {
                return kind
            }
        }
        return nil
    }

    /// The suggestion, the corrected form and the subject's kind from the violation's JSON bytes
    /// (an unreadable object gives none of them).
    static func details(
        of json: UnsafeRawBufferPointer
    )
        -> (suggestion: String?, corrected: CorrectedPresentation?, subjectKind: PresentationKind?)
    {
        guard let object = try? JSONParser.parse(json.bindMemory(to: UInt8.self)) else { return (nil, nil, nil) }
        let (suggestion, corrected) = Self.suggestion(of: object)
        return (suggestion, corrected, subjectKind(of: object))
    }
}
