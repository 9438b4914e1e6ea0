import ByteBasics
import ZeroMQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client of a daemon's control socket: sends a typed request to an endpoint over a `REQ`
/// socket and waits, at most `timeoutMs`, for its typed reply. An unreachable daemon is a
/// ``Failure/unreachable(_:)`` with one clear line, never a hang.
///
/// The client owns a ZeroMQ context and one `REQ` socket, made on first use and kept for the
/// next request (a `status` loop costs no connection per request); after a timeout the socket
/// is closed, since a `REQ` that missed its reply cannot ask again, and the next request
/// connects anew. Like its socket, a client belongs to one thread.
public final class ControlClient {
    /// Why a request got no usable reply.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No reply within the timeout, or the socket could not be used.
        case unreachable(String)
        /// A reply that is not JSON, not an object, or not the reply asked for.
        case malformed(String)
        /// The daemon answered `{"ok": false, "error": ...}`: its sentence.
        case refused(String)

        /// One line.
        public var description: String {
            switch self {
            case .unreachable(let text), .malformed(let text), .refused(let text): text
            }
        }
    }

    /// The daemon's control endpoint.
    public let endpoint: String
    /// How long a request may wait for its reply, ms.
    public let timeoutMs: Int
    private var context: ZMQContext?
    private var socket: ZMQSocket?

    /// A client of the control socket at `endpoint`; nothing connects before the first request.
    public init(endpoint: String, timeoutMs: Int = 3000) {
        self.endpoint = endpoint
        self.timeoutMs = timeoutMs
    }

    deinit {
        socket?.close()
        context?.terminate()
    }

    /// Sends `command` and returns its typed reply.
    public func send<Command: ControlCommand>(_ command: Command) throws(Failure) -> Command.Reply {
        try exchange(command).reply
    }

    /// Sends `command` and returns its reply both as the daemon's bytes and typed.
    public func exchange<Command: ControlCommand>(
        _ command: Command
    ) throws(Failure) -> (bytes: [UInt8], reply: Command.Reply) {
        let bytes = try request(command.encoded())
        do {
            return (bytes, try ControlReply.decode(bytes, as: Command.Reply.self))
        } catch {
            switch error {
            case .refused(let text): throw .refused(text)
            case .malformed(let text):
                throw .malformed("the daemon at \(endpoint) sent a reply that does not read: \(text)")
            }
        }
    }

    /// Sends one request frame as it is and returns the reply frame as the daemon sent it.
    public func request(_ frame: [UInt8]) throws(Failure) -> [UInt8] {
        if let problem = Self.ipcProblem(endpoint) { throw .unreachable(problem) }
        let socket: ZMQSocket
        do {
            socket = try open()
            _ = try socket.send(frame)
        } catch {
            drop()
            throw .unreachable("cannot talk to the daemon at \(endpoint): \(error)")
        }
        let deadline = Int(PosixClock.monotonic.milliseconds()) + timeoutMs
        do {
            let poller = ZMQPoller()
            let index = try poller.add(socket)
            while true {
                let left = deadline - Int(PosixClock.monotonic.milliseconds())
                if left <= 0 { break }
                do {
                    _ = try poller.poll(timeout: left)
                } catch  where error.isInterrupted {
                    continue
                }
                if poller.isReadable(index), let reply = try socket.receiveFrame(dontWait: true) {
                    return reply
                }
            }
        } catch {
            drop()
            throw .unreachable("cannot talk to the daemon at \(endpoint): \(error)")
        }
        drop()
        throw .unreachable(
            "no reply from modalwatchd at \(endpoint) within \(timeoutMs) ms; is it running? (start it, or pass --control)"
        )
    }

    private func open() throws(ZMQError) -> ZMQSocket {
        if let socket { return socket }
        let context: ZMQContext
        if let existing = self.context {
            context = existing
        } else {
            context = try ZMQContext(ioThreads: 1)
            self.context = context
        }
        let made = try ZMQSocket(context, type: .req, linger: 0)
        try made.connect(endpoint)
        socket = made
        return made
    }

    /// Why an `ipc://` endpoint cannot have a daemon behind it, found at once rather than after
    /// the timeout (ZeroMQ connects to an ipc path that does not exist yet and waits): the path
    /// is missing, is not a socket, or cannot be reached. `nil` for other transports, the
    /// abstract namespace (`ipc://@name`) and a socket that may be asked.
    static func ipcProblem(_ endpoint: String) -> String? {
        guard endpoint.hasPrefix("ipc://") else { return nil }
        let path = String(endpoint.dropFirst("ipc://".count))
        guard !path.isEmpty, !path.hasPrefix("@") else { return nil }
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                return
                    "no daemon at \(endpoint): \(path) does not exist; start modalwatchd (systemctl start modalwatchd), or name its control endpoint with --control or MODALWATCH_CONTROL"
            }
            return
                "cannot reach \(endpoint): \(String(cString: strerror(code))); ask to join the group that owns \(path) (ls -l \(path))"
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            return
                "no daemon at \(endpoint): \(path) is not a socket; name modalwatchd's control endpoint with --control or MODALWATCH_CONTROL"
        }
        if access(path, W_OK) != 0 {
            let code = errno
            return
                "cannot use \(endpoint): \(String(cString: strerror(code))); ask to join the group that owns \(path) (ls -l \(path))"
        }
        return nil
    }

    /// Closes the socket (the next request makes a new one).
    private func drop() {
        socket?.close()
        socket = nil
    }
}

/// A client is confined to one thread, as its socket is.
@available(*, unavailable)
extension ControlClient: Sendable {}
