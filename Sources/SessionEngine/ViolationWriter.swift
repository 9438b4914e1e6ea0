import EventDecoding
import ModalwatchABI

/// What a module's `mw_writer` points to (ABI 1.4, `mw_host.report_written`): the buffer the
/// violation's JSON is being written into, and the part being written, so that the module's
/// text and figures go straight into it, escaped once. Lives on the host's stack for the
/// write; evidence written out of order is caught here and becomes `{}`.
struct ViolationWriter {
    /// The violation buffer (the output's hand-over buffer, or the engine's scratch).
    let json: UnsafeMutablePointer<JSONBuffer>
    /// The mw_part being written.
    private(set) var part: UInt32 = UInt32(MW_PART_MESSAGE.rawValue)
    /// Where the part's bytes start in `json`.
    private(set) var start = 0
    /// Evidence: members written so far.
    private var members = 0
    /// Evidence: a key was written and its value not yet.
    private var expectingValue = false
    /// Evidence: an array value is open; how many elements it has.
    private var arrayOpen = false
    private var arrayElements = 0
    /// Evidence: the whole object was given as JSON text (`write_json`).
    private var wroteJSON = false
    /// Evidence written out of order (then it is `{}`).
    private(set) var bad = false

    init(json: UnsafeMutablePointer<JSONBuffer>) { self.json = json }

    /// Starts writing `part` at the end of the buffer.
    mutating func begin(_ part: mw_part) {
        self.part = UInt32(part.rawValue)
        start = json.pointee.count
        members = 0
        expectingValue = false
        arrayOpen = false
        arrayElements = 0
        wroteJSON = false
        bad = false
    }

    /// Whether the part got any bytes.
    var isEmpty: Bool { json.pointee.count == start }

    private var inEvidence: Bool { part == UInt32(MW_PART_EVIDENCE.rawValue) }

    /// `write_text`: escaped into the text, or one string value of the evidence.
    mutating func text(_ text: mw_str) {
        let bytes = UnsafeRawBufferPointer(start: text.ptr, count: text.ptr == nil ? 0 : text.len)
        guard inEvidence else {
            json.pointee.escaped(bytes)
            return
        }
        guard beginValue() else { return }
        if text.ptr == nil {
            json.pointee.raw("null")
        } else {
            json.pointee.byte(0x22)
            json.pointee.escaped(bytes, escapingLineSeparators: true)
            json.pointee.byte(0x22)
        }
    }

    /// `write_int`: digits into the text, or one number value of the evidence.
    mutating func integer(_ value: Int64) {
        guard !inEvidence || beginValue() else { return }
        json.pointee.integer(value)
    }

    /// `write_key`: starts an evidence member.
    mutating func key(_ key: mw_str) {
        guard inEvidence, !expectingValue, !arrayOpen, !wroteJSON, key.ptr != nil else { return markBad() }
        json.pointee.byte(members == 0 ? 0x7B : 0x2C)
        json.pointee.byte(0x22)
        json.pointee.escaped(UnsafeRawBufferPointer(start: key.ptr, count: key.len), escapingLineSeparators: true)
        json.pointee.raw("\":")
        members += 1
        expectingValue = true
    }

    /// `write_literal`: null, false, true, or an array's start or end.
    mutating func literal(_ literal: UInt32) {
        guard inEvidence else { return markBad() }
        switch literal {
        case UInt32(MW_LITERAL_NULL.rawValue):
            if beginValue() { json.pointee.raw("null") }
        case UInt32(MW_LITERAL_FALSE.rawValue):
            if beginValue() { json.pointee.raw("false") }
        case UInt32(MW_LITERAL_TRUE.rawValue):
            if beginValue() { json.pointee.raw("true") }
        case UInt32(MW_LITERAL_ARRAY_BEGIN.rawValue):
            guard !arrayOpen, beginValue() else { return markBad() }
            json.pointee.byte(0x5B)
            arrayOpen = true
            arrayElements = 0
        case UInt32(MW_LITERAL_ARRAY_END.rawValue):
            guard arrayOpen else { return markBad() }
            json.pointee.byte(0x5D)
            arrayOpen = false
        default:
            markBad()
        }
    }

    /// `write_json`: the whole evidence object as JSON text (checked when the part ends).
    mutating func wholeJSON(_ text: mw_str) {
        guard inEvidence, isEmpty, text.ptr != nil else { return markBad() }
        json.pointee.raw(UnsafeRawBufferPointer(start: text.ptr, count: text.len))
        wroteJSON = true
    }

    /// Ends the evidence part: closes the object, or makes it `{}` when nothing or something
    /// out of order was written; returns whether it was bad.
    mutating func endEvidence() -> Bool {
        if wroteJSON && !bad {
            let valid = json.pointee.withBytes {
                JSONSyntax.isValidObject(UnsafeRawBufferPointer(rebasing: $0[start...]))
            }
            if valid { return false }
            bad = true
        }
        if bad || expectingValue || arrayOpen {
            json.pointee.truncate(to: start)
            json.pointee.raw("{}")
            return true
        }
        json.pointee.raw(members == 0 ? "{}" : "}")
        return false
    }

    /// Before an evidence value: the separator inside an array, or the key's value.
    private mutating func beginValue() -> Bool {
        if arrayOpen {
            if arrayElements > 0 { json.pointee.byte(0x2C) }
            arrayElements += 1
            return true
        }
        guard expectingValue else {
            markBad()
            return false
        }
        expectingValue = false
        return true
    }

    private mutating func markBad() { bad = true }
}
