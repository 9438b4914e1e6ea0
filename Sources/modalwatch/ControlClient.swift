import ArgumentParser
import Foundation
import ZeroMQ

/// Sends one request to the control socket and waits, bounded, for the reply.
/// An unreachable daemon is one line on stderr and exit 3, never a hang.
struct ControlClient {
    /// Why a request got no usable reply.
    enum Failure: Error, CustomStringConvertible {
        /// No reply within the timeout, or the socket could not be used.
        case unreachable(String)
        /// A reply that is not a JSON object.
        case badReply(String)
        /// The daemon answered `{"ok": false, "error": ...}`.
        case refused(String)

        var description: String {
            switch self {
            case .unreachable(let text), .badReply(let text), .refused(let text): return text
            }
        }

        /// The exit code interfaces.md gives it: 3 unreachable, 1 refused.
        var exitCode: ExitCode {
            if case .refused = self { return ExitCode(1) }
            return ExitCode(3)
        }
    }

    let endpoint: String
    let timeoutMs: Int

    /// The reply object; on failure one line on stderr and exit 3 (unreachable) or 1 (refused).
    func request(_ object: [String: Any]) throws -> [String: Any] {
        do {
            return try exchange(object).reply
        } catch {
            Terminal.error(error.description)
            throw error.exitCode
        }
    }

    /// The reply bytes as the daemon sent them, and the parsed object; on failure one line and exit 3 or 1.
    func requestRaw(_ object: [String: Any]) throws -> [UInt8] {
        do {
            return try exchange(object).raw
        } catch {
            Terminal.error(error.description)
            throw error.exitCode
        }
    }

    /// One request and its reply, without printing: for callers that go on after a failure (`top`).
    func exchange(_ object: [String: Any]) throws(Failure) -> (raw: [UInt8], reply: [String: Any]) {
        let raw = try send(object)
        guard let reply = try? JSONSerialization.jsonObject(with: Data(raw)) as? [String: Any] else {
            throw .badReply("the daemon at \(endpoint) sent a reply that is not a JSON object")
        }
        if reply["ok"] as? Bool != true {
            throw .refused(reply["error"] as? String ?? "the daemon refused the request")
        }
        return (raw, reply)
    }

    private func send(_ object: [String: Any]) throws(Failure) -> [UInt8] {
        var request = object
        request["v"] = 1
        guard let body = try? JSONSerialization.data(withJSONObject: request) else {
            throw .badReply("the request could not be encoded")
        }
        do {
            let context = try ZMQContext(ioThreads: 1)
            defer { context.terminate() }
            let socket = try ZMQSocket(context, type: .req, linger: 0)
            defer { socket.close() }
            try socket.connect(endpoint)
            _ = try socket.send([UInt8](body))
            let poller = ZMQPoller()
            let index = try poller.add(socket)
            let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
            while Date() < deadline {
                do {
                    _ = try poller.poll(timeout: max(1, Int(deadline.timeIntervalSinceNow * 1000)))
                } catch where error.isInterrupted {
                    continue
                }
                if poller.isReadable(index), let reply = try socket.receiveFrame(dontWait: true) {
                    return reply
                }
            }
        } catch {
            throw .unreachable("cannot talk to the daemon at \(endpoint): \(error)")
        }
        throw .unreachable("no reply from modalwatchd at \(endpoint) within \(timeoutMs) ms; is it running? (start it, or pass --control)")
    }
}
