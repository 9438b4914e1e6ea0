import ControlProtocol
import Foundation

/// Fuzzes the control protocol (docs/control-protocol.md) of a real ingest loop in this process:
/// the input is one request frame. The daemon must answer every request, within the timeout, with
/// one JSON object carrying `"ok"` (a boolean) and `"v": 1`, and an `"error"` sentence when `ok` is
/// false; and it must not trap, whatever the request.
///
/// With `MODALWATCH_FUZZ_CONTROL_STRICT=1` it also holds the numbers of a request to the protocol
/// (`limit: N`, `since`: a duration or ms): what findings 3 and 4 of docs/RELIABILITY.md break.
final class ControlFuzzTarget {
    /// The one instance: libFuzzer calls from one thread.
    nonisolated(unsafe) static let shared = ControlFuzzTarget()

    private let daemon: ControlDaemon
    /// `MODALWATCH_FUZZ_VERBOSE=1`: print each request and its reply (to look at a few inputs).
    private let verbose = ProcessInfo.processInfo.environment["MODALWATCH_FUZZ_VERBOSE"] == "1"
    /// `MODALWATCH_FUZZ_CONTROL_STRICT=1`: also check `limit` and `since` (`checkNumbers`).
    private let strict = ProcessInfo.processInfo.environment["MODALWATCH_FUZZ_CONTROL_STRICT"] == "1"

    private init() {
        daemon = ControlDaemon(catalog: FuzzEnvironment.catalog(), stream: FuzzEnvironment.streamLines())
    }

    func run(_ input: UnsafeRawBufferPointer) {
        let reply = daemon.request(input)
        if verbose {
            FileHandle.standardError.write(
                Data("request: ".utf8) + Data(input) + Data("\nreply: ".utf8) + Data(reply) + Data("\n".utf8)
            )
        }
        // Foundation's parser, independent of the daemon's, says whether the reply is JSON at all.
        do {
            _ = try JSONSerialization.jsonObject(with: Data(reply))
        } catch {
            FuzzCheck.fail("a reply that is not JSON: \(String(decoding: reply, as: UTF8.self))")
        }
        let text = String(decoding: reply, as: UTF8.self)
        guard let object = try? JSONParser.parse(reply), object.objectValue != nil else {
            FuzzCheck.fail("a reply that is not a JSON object: \(text)")
        }
        guard let ok = object["ok"]?.boolValue, text.contains(#""ok":\#(ok)"#) else {
            FuzzCheck.fail("a reply without a boolean \"ok\": \(text)")
        }
        FuzzCheck.require(object["v"]?.wholeNumber == 1, "a reply without \"v\": 1: \(text)")
        if !ok {
            let error = object["error"]?.stringValue ?? ""
            FuzzCheck.require(!error.isEmpty, "a refusal without an error sentence: \(text)")
        } else {
            checkTyped(request: input, reply: reply)
        }
        if strict { checkNumbers(request: input, ok: ok, error: object["error"]?.stringValue ?? "") }
    }

    /// A request the daemon did what it asked gets the reply of its type: every field there,
    /// of the type ControlProtocol says.
    private func checkTyped(request: UnsafeRawBufferPointer, reply: [UInt8]) {
        let parsed: ControlRequest
        do {
            parsed = try ControlRequest(parsing: request.assumingMemoryBound(to: UInt8.self))
        } catch {
            FuzzCheck.fail(
                "the daemon answered ok to a request ControlProtocol refuses (\(error)): \(String(decoding: reply, as: UTF8.self))"
            )
        }
        do throws(ControlReply.Failure) {
            switch parsed {
            case .status: _ = try ControlReply.decode(reply, as: StatusReply.self)
            case .sessions: _ = try ControlReply.decode(reply, as: SessionsReply.self)
            case .session: _ = try ControlReply.decode(reply, as: SessionReply.self)
            case .rules: _ = try ControlReply.decode(reply, as: RulesReply.self)
            case .reload: _ = try ControlReply.decode(reply, as: ReloadReply.self)
            case .violations: _ = try ControlReply.decode(reply, as: ViolationsReply.self)
            }
        } catch {
            FuzzCheck.fail("a reply that does not read as its request's: \(error)")
        }
    }

    /// `sessions` and `violations` take `limit` only as a whole number (`1.0`, `true`, `"5"` are
    /// refused, as `sessions` does) and never call a non-negative one negative; `violations` takes
    /// `since` only as a duration string or a whole number of ms.
    private func checkNumbers(request: UnsafeRawBufferPointer, ok: Bool, error: String) {
        guard let object = try? JSONParser.parse(request.assumingMemoryBound(to: UInt8.self)),
            let command = object["cmd"]?.stringValue, command == "sessions" || command == "violations"
        else { return }
        if let limit = object["limit"], !limit.isNull {
            guard let whole = Self.wholeNumberSign(limit) else {
                FuzzCheck.require(!ok, "\(command) took a limit that is not a whole number: \(limit.text)")
                return
            }
            if whole < 0 { FuzzCheck.require(!ok, "\(command) took a negative limit") }
            if whole >= 0, !ok {
                FuzzCheck.require(!error.contains("0 or more"), "\(command) called the limit \(limit.text) negative")
            }
        }
        if command == "violations", let since = object["since"], !since.isNull, since.stringValue == nil {
            FuzzCheck.require(
                Self.wholeNumberSign(since) != nil || !ok,
                "violations took a since that is not a whole number: \(since.text)"
            )
        }
    }

    /// The sign of a JSON whole number (-1, 0, 1), or nil for a boolean, a fraction, `1.0` or not a number.
    private static func wholeNumberSign(_ value: JSONValue) -> Int? {
        switch value {
        case .integer(let number): Int(number.signum())
        case .unsigned: 1
        default: nil
        }
    }
}
