import CZeroMQ

/// How one option value is written with `zmq_setsockopt` and read with `zmq_getsockopt`.
struct ZMQOptionCodec<Value>: Sendable {
    /// Writes `value` to option `option` of `socket`; returns libzmq's result (`-1` on failure).
    let write: @Sendable (_ socket: UnsafeMutableRawPointer, _ option: Int32, _ value: Value) -> Int32
    /// Reads option `option` of `socket`.
    let read: @Sendable (_ socket: UnsafeMutableRawPointer, _ option: Int32) throws(ZMQError) -> Value
}

extension ZMQOptionCodec {
    /// A fixed-size integer option.
    private static func integer<T: FixedWidthInteger & Sendable>(
        _: T.Type,
        from convert: @escaping @Sendable (T) -> Value,
        to back: @escaping @Sendable (Value) -> T
    ) -> Self {
        Self(
            write: { socket, option, value in
                var raw = back(value)
                return zmq_setsockopt(socket, option, &raw, MemoryLayout<T>.size)
            },
            read: { (socket, option) throws(ZMQError) -> Value in
                var raw = T.zero
                var size = MemoryLayout<T>.size
                try LibZMQ.callOnce("zmq_getsockopt(\(option))") { zmq_getsockopt(socket, option, &raw, &size) }
                return convert(raw)
            }
        )
    }
}

/// Reads a variable-length option into a stack buffer of `capacity` bytes and hands the filled part to `body`.
private func readRaw<T>(
    _ socket: UnsafeMutableRawPointer,
    _ option: Int32,
    capacity: Int,
    _ body: (UnsafeRawBufferPointer) -> T
) throws(ZMQError) -> T {
    let result: Result<T, ZMQError> = withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
        var size = buffer.count
        let outcome = Result { () throws(ZMQError) in
            try LibZMQ.callOnce("zmq_getsockopt(\(option))") {
                zmq_getsockopt(socket, option, buffer.baseAddress, &size)
            }
        }
        return outcome.map { _ in body(UnsafeRawBufferPointer(rebasing: buffer[..<size])) }
    }
    return try result.get()
}

extension ZMQOptionCodec where Value == Int32 {
    /// A C `int`.
    static var int32: Self { .integer(Int32.self, from: { $0 }, to: { $0 }) }
}

extension ZMQOptionCodec where Value == Int64 {
    /// A C `int64_t`.
    static var int64: Self { .integer(Int64.self, from: { $0 }, to: { $0 }) }
}

extension ZMQOptionCodec where Value == Bool {
    /// A C `int` that is 0 or 1.
    static var bool: Self { .integer(Int32.self, from: { $0 != 0 }, to: { $0 ? 1 : 0 }) }
}

extension ZMQOptionCodec where Value == [UInt8] {
    /// A byte string; read back into a stack buffer of `readCapacity` bytes.
    static func bytes(readCapacity: Int) -> Self {
        Self(
            write: { socket, option, value in
                value.withUnsafeBytes { zmq_setsockopt(socket, option, $0.baseAddress, $0.count) }
            },
            read: { (socket, option) throws(ZMQError) -> Value in
                try readRaw(socket, option, capacity: readCapacity) { bytes in
                    Array(bytes)
                }
            }
        )
    }
}

extension ZMQOptionCodec where Value == String {
    /// A character string, written without and read with a terminating NUL.
    static func string(readCapacity: Int) -> Self {
        Self(
            write: { socket, option, value in
                var value = value
                return value.withUTF8 { zmq_setsockopt(socket, option, $0.baseAddress, $0.count) }
            },
            read: { (socket, option) throws(ZMQError) -> Value in
                try readRaw(socket, option, capacity: readCapacity) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
            }
        )
    }
}
