import ArgumentParser
import Foundation
import ZeroMQ

/// Sends one request to the control socket and waits, bounded, for the reply.
/// An unreachable daemon is one line on stderr and exit 3, never a hang.
struct ControlClient {
    let endpoint: String
    let timeoutMs: Int

    /// The reply object, or exit 3 (unreachable) / 1 (the daemon said no).
    func request(_ object: [String: Any]) throws -> [String: Any] {
        let raw = try requestRaw(object)
        guard let reply = try? JSONSerialization.jsonObject(with: Data(raw)) as? [String: Any] else {
            Terminal.error("the daemon at \(endpoint) sent a reply that is not JSON")
            throw ExitCode(3)
        }
        if reply["ok"] as? Bool != true {
            Terminal.error(reply["error"] as? String ?? "the daemon refused the request")
            throw ExitCode(1)
        }
        return reply
    }

    /// The reply bytes, as the daemon sent them.
    func requestRaw(_ object: [String: Any]) throws -> [UInt8] {
        var request = object
        request["v"] = 1
        let body = try JSONSerialization.data(withJSONObject: request)
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
                _ = try poller.poll(timeout: max(1, Int(deadline.timeIntervalSinceNow * 1000)))
                if poller.isReadable(index), let reply = try socket.receiveFrame(dontWait: true) {
                    return reply
                }
            }
        } catch {
            Terminal.error("cannot talk to the daemon at \(endpoint): \(error)")
            throw ExitCode(3)
        }
        Terminal.error("no reply from modalwatchd at \(endpoint) within \(timeoutMs) ms; is it running? (start it, or pass --control)")
        throw ExitCode(3)
    }
}
