import ByteBasics
import EventDecoding
import Foundation
import ModalwatchABI

/// Fuzzes `EventDecoder`: every input is decoded as a payload by a decoder with the default limits
/// and by one with tiny limits (so every limit is reached by short inputs), and each item is checked
/// by `EventInvariants`. The input is also round-tripped through `JSONStringEscaper`: quoted, put in
/// an event, decoded, it must come back as `String(decoding:)` of the input.
///
/// A broken invariant traps (`preconditionFailure`), which libFuzzer reports as a crash.
final class DecoderFuzzTarget {
    /// The one instance: libFuzzer calls from one thread, and the decoders are reused as in the daemon.
    nonisolated(unsafe) static let shared = DecoderFuzzTarget()

    private let checks: [EventInvariants]
    private let roundTrip: EventInvariants
    private var quoted: [UInt8] = []

    private init() {
        let tiny = EventLimits(
            maxEventBytes: 512,
            maxStringBytes: 32,
            maxButtons: 3,
            maxTextFields: 3,
            maxBatchEvents: 4,
            maxSessionBytes: 16,
            maxAppBytes: 24,
            maxIdBytes: 8,
            maxTaskBytes: 8,
            maxBackgroundBytes: 8,
            maxPayloadBytes: 2048,
            maxDepth: 6
        )
        let standard = EventInvariants(decoder: EventDecoder())
        checks = [standard, EventInvariants(decoder: EventDecoder(limits: tiny))]
        roundTrip = standard
    }

    func run(_ input: UnsafeRawBufferPointer) {
        for check in checks {
            let summary = check.decodeAndCheck(input)
            if check === roundTrip, summary.items == 1, summary.events == 1 {
                Self.checkAcceptedIsJSON(input)
            }
        }
        checkEscaper(input)
    }

    /// A payload the decoder took as exactly one event is one JSON object: Foundation must agree.
    private static func checkAcceptedIsJSON(_ input: UnsafeRawBufferPointer) {
        let data = Data(input)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            // Foundation refuses numbers that do not fit a Double (1e400) and decimal literals over
            // its own limits; the decoder, per RFC 8259, takes them in fields it does not read.
            if "\(error)".contains("Number") { return }
            FuzzCheck.fail("decoder accepted a payload Foundation rejects: \(error)")
        }
        FuzzCheck.require(object is [String: Any], "decoder accepted a payload that is not a JSON object")
    }

    /// `appendQuoted` of any bytes is a valid JSON string that decodes to the bytes themselves when
    /// they are valid UTF-8; otherwise to the same scalars with U+FFFD for the invalid bytes (one per
    /// byte for the escaper, one per maximal ill-formed subpart for Swift: runs of U+FFFD are
    /// compared collapsed).
    private func checkEscaper(_ input: UnsafeRawBufferPointer) {
        guard input.count <= 1000 else { return }
        quoted.removeAll(keepingCapacity: true)
        quoted.append(contentsOf: #"{"v":1,"type":"nav.push","session":"s","ts":1,"screen":"#.utf8)
        JSONStringEscaper.appendQuoted(input, to: &quoted)
        quoted.append(UInt8(ascii: "}"))
        FuzzCheck.require(quoted.withUnsafeBytes { JSONSyntax.isValidObject($0) }, "escaper wrote invalid JSON")
        let valid = String(validating: input.assumingMemoryBound(to: UInt8.self), as: UTF8.self) != nil
        let expected = Self.collapsingReplacements(Array(String(decoding: input, as: UTF8.self).utf8), valid)
        var seen = false
        roundTrip.decoder.decode(quoted) { item in
            guard case .event(let event) = item else {
                FuzzCheck.fail("escaped string rejected: \(item)")
            }
            let screen = event.pointee.screen
            let bytes = UnsafeRawBufferPointer(start: screen.ptr, count: screen.len)
            FuzzCheck.require(screen.ptr != nil, "escaped string decoded to NULL")
            FuzzCheck.require(
                Self.collapsingReplacements(Array(bytes), valid) == expected,
                "escaped string did not round-trip"
            )
            seen = true
        }
        FuzzCheck.require(seen, "escaped string produced no item")
    }

    /// `bytes` with each run of U+FFFD made one, unless they came from valid UTF-8.
    private static func collapsingReplacements(_ bytes: [UInt8], _ valid: Bool) -> [UInt8] {
        guard !valid else { return bytes }
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if i + 3 <= bytes.count, Array(bytes[i..<i + 3]) == replacement {
                if !out.suffix(3).elementsEqual(replacement) { out += replacement }
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
