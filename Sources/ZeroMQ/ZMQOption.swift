import CZeroMQ

/// A typed socket option: the libzmq option number and how its value travels.
///
/// Use the static members (`.linger`, `.receiveHighWaterMark`, `.maxMessageSize`, …) with
/// ``ZMQSocket/set(_:_:)`` and ``ZMQSocket/get(_:)``. For an option without a static member, make
/// one with the initialiser for its C type, e.g. `ZMQOption<Int32>(int32: ZMQ_TCP_KEEPALIVE)`.
public struct ZMQOption<Value>: Sendable {
    /// The libzmq option number (`ZMQ_…`).
    public let rawValue: Int32
    /// How the value is read and written.
    let codec: ZMQOptionCodec<Value>

    /// Creates an option from its number and codec.
    init(rawValue: Int32, codec: ZMQOptionCodec<Value>) {
        self.rawValue = rawValue
        self.codec = codec
    }
}

extension ZMQOption where Value == Int32 {
    /// An option whose C type is `int`.
    public init(int32 rawValue: Int32) {
        self.init(rawValue: rawValue, codec: .int32)
    }

    /// `ZMQ_LINGER`, milliseconds: how long ``ZMQSocket/close()`` keeps unsent messages (`-1`: forever).
    /// The socket remembers the value it was last set to and sets it again just before closing.
    public static var linger: Self { Self(int32: ZMQ_LINGER) }
    /// `ZMQ_SNDHWM`: how many outbound messages are queued per peer before sends block or drop.
    public static var sendHighWaterMark: Self { Self(int32: ZMQ_SNDHWM) }
    /// `ZMQ_RCVHWM`: how many inbound messages are queued per peer before the peer is held back or dropped.
    public static var receiveHighWaterMark: Self { Self(int32: ZMQ_RCVHWM) }
    /// `ZMQ_RCVTIMEO`, milliseconds: how long a blocking receive waits before failing with `EAGAIN` (`-1`: forever).
    public static var receiveTimeout: Self { Self(int32: ZMQ_RCVTIMEO) }
    /// `ZMQ_SNDTIMEO`, milliseconds: how long a blocking send waits before failing with `EAGAIN` (`-1`: forever).
    public static var sendTimeout: Self { Self(int32: ZMQ_SNDTIMEO) }
    /// `ZMQ_RECONNECT_IVL`, milliseconds: the wait before reconnecting a lost connection.
    public static var reconnectInterval: Self { Self(int32: ZMQ_RECONNECT_IVL) }
    /// `ZMQ_RECONNECT_IVL_MAX`, milliseconds: the ceiling of the exponential reconnect back-off (`0`: none).
    public static var reconnectIntervalMax: Self { Self(int32: ZMQ_RECONNECT_IVL_MAX) }
    /// `ZMQ_SNDBUF`, bytes: the kernel send buffer (`-1`: the OS default).
    public static var sendBuffer: Self { Self(int32: ZMQ_SNDBUF) }
    /// `ZMQ_RCVBUF`, bytes: the kernel receive buffer (`-1`: the OS default).
    public static var receiveBuffer: Self { Self(int32: ZMQ_RCVBUF) }
    /// `ZMQ_HANDSHAKE_IVL`, milliseconds: a connection that has not finished the ZMTP handshake
    /// (and CURVE's) by then is closed (`0`: never; libzmq's default is 30 s).
    public static var handshakeInterval: Self { Self(int32: ZMQ_HANDSHAKE_IVL) }
    /// `ZMQ_BACKLOG`: the listen backlog of bound endpoints.
    public static var backlog: Self { Self(int32: ZMQ_BACKLOG) }
    /// `ZMQ_TYPE` (read only): the socket type's libzmq constant.
    public static var type: Self { Self(int32: ZMQ_TYPE) }
    /// `ZMQ_EVENTS` (read only): `ZMQ_POLLIN`/`ZMQ_POLLOUT` bits of what can be done now.
    public static var events: Self { Self(int32: ZMQ_EVENTS) }
    /// `ZMQ_FD` (read only): a file descriptor that becomes readable when ``events`` may have changed
    /// (edge-triggered; check ``events`` after it fires).
    public static var fileDescriptor: Self { Self(int32: ZMQ_FD) }
}

extension ZMQOption where Value == Int64 {
    /// An option whose C type is `int64_t`.
    public init(int64 rawValue: Int32) {
        self.init(rawValue: rawValue, codec: .int64)
    }

    /// `ZMQ_MAXMSGSIZE`, bytes: a peer that sends a larger message is disconnected (`-1`: no limit).
    /// Enforced by the wire decoder: applies to `tcp://` and `ipc://`, not to `inproc://`.
    public static var maxMessageSize: Self { Self(int64: ZMQ_MAXMSGSIZE) }
}

extension ZMQOption where Value == Bool {
    /// An option whose C type is `int` used as a boolean.
    public init(bool rawValue: Int32) {
        self.init(rawValue: rawValue, codec: .bool)
    }

    /// `ZMQ_IMMEDIATE`: queue messages only to completed connections.
    public static var immediate: Self { Self(bool: ZMQ_IMMEDIATE) }
    /// `ZMQ_IPV6`: allow IPv6 on `tcp://` endpoints.
    public static var ipv6: Self { Self(bool: ZMQ_IPV6) }
    /// `ZMQ_RCVMORE` (read only): the last frame received has more frames after it.
    public static var receiveMore: Self { Self(bool: ZMQ_RCVMORE) }
    /// `ZMQ_CONFLATE`: keep only the last message (single-frame messages only).
    public static var conflate: Self { Self(bool: ZMQ_CONFLATE) }
    /// `ZMQ_ROUTER_MANDATORY`: a `ROUTER` fails with `EHOSTUNREACH` instead of dropping unroutable messages.
    public static var routerMandatory: Self { Self(bool: ZMQ_ROUTER_MANDATORY) }
    /// `ZMQ_XPUB_NODROP` (`XPUB`): when a subscriber's queue is full, a send with
    /// ``ZMQSendFlags/dontWait`` reports `false` (`EAGAIN`) instead of dropping silently, as a `PUB`
    /// does, so the publisher can count what it drops. The message then goes to no subscriber.
    public static var xpubNoDrop: Self { Self(bool: ZMQ_XPUB_NODROP) }
    /// `ZMQ_XPUB_VERBOSER` (`XPUB`): every subscription and unsubscription a peer sends is passed
    /// up to the application (a message of one byte, 1 or 0, then the topic), not only the first
    /// and last of each topic; libzmq still applies each one itself.
    public static var xpubVerboser: Self { Self(bool: ZMQ_XPUB_VERBOSER) }
    /// `ZMQ_CURVE_SERVER`: act as a CURVE server (set ``curveSecretKey`` too).
    public static var curveServer: Self { Self(bool: ZMQ_CURVE_SERVER) }
}

extension ZMQOption where Value == [UInt8] {
    /// An option whose value is a byte string (`void *` and a length).
    ///
    /// - Parameters:
    ///   - rawValue: the libzmq option number.
    ///   - readCapacity: the buffer size for reading it back (libzmq fails with `EINVAL` when the value is longer).
    public init(bytes rawValue: Int32, readCapacity: Int = 256) {
        self.init(rawValue: rawValue, codec: .bytes(readCapacity: readCapacity))
    }

    /// `ZMQ_SUBSCRIBE` (write only): receive messages that start with these bytes (empty: all).
    public static var subscribe: Self { Self(bytes: ZMQ_SUBSCRIBE) }
    /// `ZMQ_UNSUBSCRIBE` (write only): undo one earlier ``subscribe`` of the same bytes.
    public static var unsubscribe: Self { Self(bytes: ZMQ_UNSUBSCRIBE) }
    /// `ZMQ_ROUTING_ID`: the identity a `ROUTER` peer sees (1 to 255 bytes, not starting with 0).
    public static var routingID: Self { Self(bytes: ZMQ_ROUTING_ID) }
}

extension ZMQOption where Value == String {
    /// An option whose value is a character string (libzmq returns it NUL-terminated).
    ///
    /// - Parameters:
    ///   - rawValue: the libzmq option number.
    ///   - readCapacity: the buffer size for reading it back, terminating NUL included.
    public init(string rawValue: Int32, readCapacity: Int = 1024) {
        self.init(rawValue: rawValue, codec: .string(readCapacity: readCapacity))
    }

    /// `ZMQ_LAST_ENDPOINT` (read only): the endpoint last bound, with the port the OS chose for `*`.
    public static var lastEndpoint: Self { Self(string: ZMQ_LAST_ENDPOINT) }
    /// `ZMQ_ZAP_DOMAIN`: the authentication domain.
    public static var zapDomain: Self { Self(string: ZMQ_ZAP_DOMAIN) }
    /// `ZMQ_CURVE_PUBLICKEY` as 40 characters of Z85.
    public static var curvePublicKey: Self { Self(string: ZMQ_CURVE_PUBLICKEY, readCapacity: 41) }
    /// `ZMQ_CURVE_SECRETKEY` as 40 characters of Z85.
    public static var curveSecretKey: Self { Self(string: ZMQ_CURVE_SECRETKEY, readCapacity: 41) }
    /// `ZMQ_CURVE_SERVERKEY` (clients) as 40 characters of Z85.
    public static var curveServerKey: Self { Self(string: ZMQ_CURVE_SERVERKEY, readCapacity: 41) }
}
