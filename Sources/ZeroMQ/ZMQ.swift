import CZeroMQ

/// Facts about the libzmq this process runs with.
public enum ZMQ: Sendable {
    /// The version of the libzmq library loaded at run time (`zmq_version`).
    public static var version: ZMQVersion {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return ZMQVersion(major: Int(major), minor: Int(minor), patch: Int(patch))
    }

    /// Whether libzmq was built with a capability (`zmq_has`): `"ipc"`, `"curve"`, `"draft"`, ….
    public static func has(_ capability: String) -> Bool {
        zmq_has(capability) != 0
    }

    /// Makes a new CURVE key pair (`zmq_curve_keypair`), each key as 40 characters of Z85.
    ///
    /// - Throws: ``ZMQError`` with `ENOTSUP` when libzmq was built without CURVE.
    public static func curveKeyPair() throws(ZMQError) -> (publicKey: String, secretKey: String) {
        var publicKey = [CChar](repeating: 0, count: 41)
        var secretKey = [CChar](repeating: 0, count: 41)
        try LibZMQ.callOnce("zmq_curve_keypair") { zmq_curve_keypair(&publicKey, &secretKey) }
        return (Self.string(fromCString: publicKey), Self.string(fromCString: secretKey))
    }

    /// Decodes a NUL-terminated buffer.
    private static func string(fromCString buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
