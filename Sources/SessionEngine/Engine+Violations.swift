import ModalwatchABI
import RuleHost
import EventDecoding

/// Writing a violation object (violations.md, "A violation") and its topic.
extension Engine {
    func writeViolation(
        _ report: mw_report, event: mw_event, session: Session, rule: ActiveRule,
        subject: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer
    ) -> (idHigh: UInt64, idLow: UInt64, fingerprint: UInt64) {
        let descriptor = rule.descriptor
        // fingerprint: stable for the same rule, app, session and subject (and key, where the rule keys by value).
        var h = Hashing.fnv1a(descriptor.id)
        h = Hashing.fnv1a(session.app.bytes.buffer, Hashing.separator(h))
        h = Hashing.fnv1a(session.id.buffer, Hashing.separator(h))
        h = Hashing.fnv1a(subject, Hashing.separator(h))
        if report.key.ptr != nil { h = Hashing.fnv1a(key, Hashing.separator(h)) }
        let fingerprint = Hashing.mix(h)
        // id: unique per firing (the session's count of violations so far tells apart two firings
        // at the same event time), and the same in a replay.
        let firing = UInt64(session.violations) ^ (UInt64(bitPattern: session.startedTs) &* Hashing.prime)
        let idHigh = Hashing.mix(fingerprint ^ Hashing.mix(UInt64(bitPattern: event.ts)) ^ Hashing.mix(firing))
        let idLow = Hashing.mix(idHigh ^ h)

        topic.reset()
        topic.raw("violation/")
        topic.raw(session.app.bytes.buffer)
        topic.byte(0x2F)
        topic.text(descriptor.id)

        json.reset()
        json.raw("{\"v\":1,\"id\":\"")
        json.hex64(idHigh)
        json.hex64(idLow)
        json.raw("\",")
        json.key("rule"); json.string(descriptor.id); json.byte(0x2C)
        json.key("rev"); json.integer(Int64(descriptor.rev)); json.byte(0x2C)
        json.key("module"); json.string(descriptor.module); json.byte(0x2C)
        json.key("severity"); json.string(rule.severity.rawValue); json.byte(0x2C)
        json.key("edition"); json.string(session.app.profile.edition.rawValue); json.byte(0x2C)
        json.key("app"); json.string(session.app.bytes.buffer); json.byte(0x2C)
        json.key("session"); json.string(session.id.buffer); json.byte(0x2C)
        json.key("ts"); json.integer(event.ts); json.byte(0x2C)
        json.key("observed"); json.integer(observed); json.byte(0x2C)
        json.key("subject")
        if report.subject.ptr != nil { json.string(subject) } else { json.raw("null") }
        json.byte(0x2C)
        json.key("message")
        if report.message.ptr != nil && report.message.len > 0 {
            json.string(Self.bytes(report.message))
        } else {
            json.string(descriptor.summary)
        }
        json.byte(0x2C)
        json.key("guideline"); json.string(descriptor.guideline); json.byte(0x2C)
        json.key("evidence")
        let evidence = Self.bytes(report.evidence_json)
        if report.evidence_json.ptr == nil {
            json.raw("{}")
        } else if JSONSyntax.isValidObject(evidence) {
            json.raw(evidence)
        } else {
            statistics.badEvidence += 1
            json.raw("{}")
        }
        json.byte(0x2C)
        json.key("events")
        json.byte(0x5B)
        if let earlier = report.events {
            for i in 0..<Int(min(report.event_count, 64)) {
                let ref = earlier[i]
                writeEventRef(type: Self.bytes(ref.type), ts: ref.ts, id: ref.id, seq: ref.seq)
                json.byte(0x2C)
            }
        }
        writeEventRef(type: Self.bytes(event.type_name), ts: event.ts, id: event.id, seq: event.seq)
        json.raw("],")
        json.key("fingerprint")
        json.byte(0x22)
        json.hex64(fingerprint)
        json.raw("\"}")
        return (idHigh, idLow, fingerprint)
    }

    private func writeEventRef(type: UnsafeRawBufferPointer, ts: Int64, id: mw_str, seq: Int64) {
        json.raw("{\"type\":")
        json.string(type)
        json.raw(",\"ts\":")
        json.integer(ts)
        if id.ptr != nil {
            json.raw(",\"id\":")
            json.string(Self.bytes(id))
        }
        if seq > 0 {
            json.raw(",\"seq\":")
            json.integer(seq)
        }
        json.byte(0x7D)
    }
}
