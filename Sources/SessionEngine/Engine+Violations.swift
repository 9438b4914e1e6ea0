import ByteBasics
import EventDecoding
import ModalwatchABI
import RuleHost

/// Writing a violation object (violations.md, "A violation") and its topic.
extension Engine {
    /// The violation's `id` (two halves) and `fingerprint`; writes its topic into `topic`.
    func violationIDs(
        _ report: mw_report,
        event: mw_event,
        session: Session,
        template: ViolationTemplate,
        subject: UnsafeRawBufferPointer,
        key: UnsafeRawBufferPointer
    ) -> (idHigh: UInt64, idLow: UInt64, fingerprint: UInt64) {
        // fingerprint: stable for the same rule, app, session and subject (and key, where the rule keys by value).
        var h = template.seed  // Hashing.fnv1a(rule id)
        h = session.withApp { Hashing.fnv1a($0.bytes.buffer, Hashing.separator(h)) }
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
        session.withApp { topic.raw($0.topicPrefix) }
        topic.raw(template.topicRule)
        return (idHigh, idLow, fingerprint)
    }

    /// Writes the violation object at the end of `json` (one exclusive access to the buffer for
    /// the whole object, not one per field); returns whether the rule's evidence was not a JSON
    /// object (and `{}` went out instead).
    static func writeObject(
        into json: inout JSONBuffer,
        report: mw_report,
        event: mw_event,
        session: Session,
        template: ViolationTemplate,
        subject: UnsafeRawBufferPointer,
        observed: Int64,
        ids: (high: UInt64, low: UInt64, fingerprint: UInt64),
        written: WrittenParts? = nil
    ) -> Bool {
        if let written {
            return withUnsafeMutablePointer(to: &json) { buffer in
                var writer = ViolationWriter(json: buffer)
                return withUnsafeMutablePointer(to: &writer) { writer in
                    writeObject(
                        into: buffer,
                        report: report,
                        event: event,
                        session: session,
                        template: template,
                        subject: subject,
                        observed: observed,
                        ids: ids,
                        written: (written, writer)
                    )
                }
            }
        }
        return withUnsafeMutablePointer(to: &json) { buffer in
            writeObject(
                into: buffer,
                report: report,
                event: event,
                session: session,
                template: template,
                subject: subject,
                observed: observed,
                ids: ids,
                written: nil
            )
        }
    }

    /// `writeObject`, with the module's parts written through `written`'s writer when given
    /// (ABI 1.4), else taken from the report.
    private static func writeObject(
        into buffer: UnsafeMutablePointer<JSONBuffer>,
        report: mw_report,
        event: mw_event,
        session: Session,
        template: ViolationTemplate,
        subject: UnsafeRawBufferPointer,
        observed: Int64,
        ids: (high: UInt64, low: UInt64, fingerprint: UInt64),
        written: (parts: WrittenParts, writer: UnsafeMutablePointer<ViolationWriter>)?
    ) -> Bool {
        @inline(__always) func write(_ part: mw_part) {
            guard let written else { return }
            written.writer.pointee.begin(part)
            written.parts.write(written.parts.state, OpaquePointer(written.writer), UInt32(part.rawValue))
        }
        let json = buffer
        json.pointee.raw("{\"v\":1,\"id\":\"")
        json.pointee.hex64(ids.high)
        json.pointee.hex64(ids.low)
        json.pointee.raw("\",")
        json.pointee.raw(template.head)
        session.withApp { json.pointee.raw($0.jsonField) }
        if let locale = event.locale.ptr, event.locale.len > 0 {
            // violations.md: the judged texts' language, absent when undetermined.
            json.pointee.raw("\"locale\":")
            json.pointee.string(UnsafeRawBufferPointer(start: locale, count: event.locale.len))
            json.pointee.byte(0x2C)
        }
        json.pointee.raw("\"session\":")
        json.pointee.string(session.id.buffer)
        json.pointee.raw(",\"ts\":")
        json.pointee.integer(event.ts)
        json.pointee.raw(",\"observed\":")
        json.pointee.integer(observed)
        json.pointee.raw(",\"subject\":")
        if report.subject.ptr != nil { json.pointee.string(subject) } else { json.pointee.raw("null") }
        json.pointee.raw(",\"message\":")
        if let written {
            json.pointee.byte(0x22)
            write(MW_PART_MESSAGE)
            if written.writer.pointee.isEmpty {
                json.pointee.truncate(to: json.pointee.count - 1)
                json.pointee.raw(template.summary)
            } else {
                json.pointee.byte(0x22)
            }
        } else if report.message.ptr != nil && report.message.len > 0 {
            json.pointee.string(bytes(report.message))
        } else {
            json.pointee.raw(template.summary)
        }
        json.pointee.byte(0x2C)
        json.pointee.raw(template.guideline)
        json.pointee.raw("\"evidence\":")
        let evidence = bytes(report.evidence_json)
        var bad = false
        if let written {
            write(MW_PART_EVIDENCE)
            bad = written.writer.pointee.endEvidence()
        } else if report.evidence_json.ptr == nil {
            json.pointee.raw("{}")
        } else if JSONSyntax.isValidObject(evidence) {
            json.pointee.raw(evidence)
        } else {
            bad = true
            json.pointee.raw("{}")
        }
        json.pointee.raw(",\"events\":[")
        if let earlier = report.events {
            for i in 0..<Int(min(report.event_count, 64)) {
                let ref = earlier[i]
                writeEventRef(into: &json.pointee, type: bytes(ref.type), ts: ref.ts, id: ref.id, seq: ref.seq)
                json.pointee.byte(0x2C)
            }
        }
        writeEventRef(into: &json.pointee, type: bytes(event.type_name), ts: event.ts, id: event.id, seq: event.seq)
        json.pointee.raw("],\"fingerprint\":\"")
        json.pointee.hex64(ids.fingerprint)
        json.pointee.raw("\",\"suggestion\":")
        if let written {
            json.pointee.byte(0x22)
            write(MW_PART_SUGGESTION)
            if written.writer.pointee.isEmpty {
                json.pointee.truncate(to: json.pointee.count - 1)
                json.pointee.raw("null")
            } else {
                json.pointee.byte(0x22)
            }
        } else if report.suggestion.ptr != nil && report.suggestion.len > 0 {
            json.pointee.string(bytes(report.suggestion))
        } else {
            json.pointee.raw("null")
        }
        json.pointee.byte(0x7D)
        return bad
    }

    /// A module's writer of a violation's parts (ABI 1.4, `mw_host.report_written`).
    struct WrittenParts {
        /// The module's function, called once per part.
        let write: mw_write_fn
        /// The module's state for it.
        let state: UnsafeMutableRawPointer?
    }

    private static func writeEventRef(
        into json: inout JSONBuffer,
        type: UnsafeRawBufferPointer,
        ts: Int64,
        id: mw_str,
        seq: Int64
    ) {
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
