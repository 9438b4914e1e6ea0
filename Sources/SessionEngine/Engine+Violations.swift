import ByteBasics
import ModalwatchABI
import RuleHost
import EventDecoding

/// Writing a violation object (violations.md, "A violation") and its topic.
extension Engine {
    /// The violation's `id` (two halves) and `fingerprint`; writes its topic into `topic`.
    func violationIDs(
        _ report: mw_report, event: mw_event, session: Session, template: ViolationTemplate,
        subject: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer
    ) -> (idHigh: UInt64, idLow: UInt64, fingerprint: UInt64) {
        // fingerprint: stable for the same rule, app, session and subject (and key, where the rule keys by value).
        var h = template.seed  // Hashing.fnv1a(rule id)
        h = Hashing.fnv1a(session.app.bytes.buffer, Hashing.separator(h))
        h = Hashing.fnv1a(session.id.buffer, Hashing.separator(h))
        h = Hashing.fnv1a(subject, Hashing.separator(h))
        if report.key.ptr != nil { h = Hashing.fnv1a(key, Hashing.separator(h)) }
        let fingerprint = Hashing.mix(h)
        // id: unique per firing (the session's count of violations so far tells apart two firings
        // at the same event time), and the same in a replay.
        let firing = UInt64(session.violations) ^ (UInt64(bitPattern: session.startedTs) &* FNV1a64.prime)
        let idHigh = Hashing.mix(fingerprint ^ Hashing.mix(UInt64(bitPattern: event.ts)) ^ Hashing.mix(firing))
        let idLow = Hashing.mix(idHigh ^ h)

        topic.reset()
        topic.raw(session.app.topicPrefix)
        topic.raw(template.topicRule)
        return (idHigh, idLow, fingerprint)
    }

    /// Writes the violation object at the end of `json` (one exclusive access to the buffer for
    /// the whole object, not one per field); returns whether the rule's evidence was not a JSON
    /// object (and `{}` went out instead).
    static func writeObject(
        into json: inout JSONBuffer, report: mw_report, event: mw_event, session: Session,
        template: ViolationTemplate, subject: UnsafeRawBufferPointer, observed: Int64,
        ids: (high: UInt64, low: UInt64, fingerprint: UInt64)
    ) -> Bool {
        json.raw("{\"v\":1,\"id\":\"")
        json.hex64(ids.high)
        json.hex64(ids.low)
        json.raw("\",")
        json.raw(template.head)
        json.raw(session.app.jsonField)
        json.raw("\"session\":")
        json.string(session.id.buffer)
        json.raw(",\"ts\":")
        json.integer(event.ts)
        json.raw(",\"observed\":")
        json.integer(observed)
        json.raw(",\"subject\":")
        if report.subject.ptr != nil { json.string(subject) } else { json.raw("null") }
        json.raw(",\"message\":")
        if report.message.ptr != nil && report.message.len > 0 {
            json.string(bytes(report.message))
        } else {
            json.raw(template.summary)
        }
        json.byte(0x2C)
        json.raw(template.guideline)
        json.raw("\"evidence\":")
        let evidence = bytes(report.evidence_json)
        var bad = false
        if report.evidence_json.ptr == nil {
            json.raw("{}")
        } else if JSONSyntax.isValidObject(evidence) {
            json.raw(evidence)
        } else {
            bad = true
            json.raw("{}")
        }
        json.raw(",\"events\":[")
        if let earlier = report.events {
            for i in 0..<Int(min(report.event_count, 64)) {
                let ref = earlier[i]
                writeEventRef(into: &json, type: bytes(ref.type), ts: ref.ts, id: ref.id, seq: ref.seq)
                json.byte(0x2C)
            }
        }
        writeEventRef(into: &json, type: bytes(event.type_name), ts: event.ts, id: event.id, seq: event.seq)
        json.raw("],\"fingerprint\":\"")
        json.hex64(ids.fingerprint)
        json.raw("\",\"suggestion\":")
        if report.suggestion.ptr != nil && report.suggestion.len > 0 {
            json.string(bytes(report.suggestion))
        } else {
            json.raw("null")
        }
        json.byte(0x7D)
        return bad
    }

    private static func writeEventRef(into json: inout JSONBuffer, type: UnsafeRawBufferPointer, ts: Int64, id: mw_str, seq: Int64) {
        json.raw("{\"type\":")
        json.string(type)
        json.raw(",\"ts\":")
        json.integer(ts)
        if id.ptr != nil {
            json.raw(",\"id\":")
            json.string(bytes(id))
        }
        if seq > 0 {
            json.raw(",\"seq\":")
            json.integer(seq)
        }
        json.byte(0x7D)
    }
}
