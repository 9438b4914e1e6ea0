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
            title: evidence?["suggested_title"]?.stringValue, message: evidence?["suggested_message"]?.stringValue,
            buttons: buttons)
        return (object["suggestion"]?.stringValue, corrected)
    }

    /// The same from the violation's JSON bytes (an unreadable object gives neither).
    static func suggestion(of json: UnsafeRawBufferPointer) -> (suggestion: String?, corrected: CorrectedPresentation?) {
        guard let object = try? JSONParser.parse(json.bindMemory(to: UInt8.self)) else { return (nil, nil) }
        return suggestion(of: object)
    }
}
