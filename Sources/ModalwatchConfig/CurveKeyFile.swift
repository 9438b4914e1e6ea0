public import Foundation

/// A CURVE key pair in ZeroMQ's certificate format (as czmq's zcert and pyzmq's
/// `zmq.auth` write and read it): `public-key = "…"` and `secret-key = "…"` lines.
public struct CurveKeyFile: Sendable, Equatable {
    /// The public key, Z85 (40 characters).
    public var publicKey: String
    /// The secret key, Z85 (40 characters); never logged.
    public var secretKey: String

    /// A key pair.
    public init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// What went wrong reading a key file.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// One line, naming the file.
        public let description: String
    }

    /// Reads a key file; its secret key must be there.
    public static func read(path: String) throws(Failure) -> CurveKeyFile {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(
                description:
                    "\(path): cannot read the CURVE key file; make one with `modalwatch keygen --output \(path)`"
            )
        }
        var publicKey: String?
        var secretKey: String?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            let value = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if parts[0] == "public-key" { publicKey = value }
            if parts[0] == "secret-key" { secretKey = value }
        }
        guard let publicKey, isZ85Key(publicKey) else {
            throw Failure(description: "\(path): no valid public-key (40 Z85 characters)")
        }
        guard let secretKey, isZ85Key(secretKey) else {
            throw Failure(
                description: "\(path): no valid secret-key (40 Z85 characters); is this a public-only certificate?"
            )
        }
        return CurveKeyFile(publicKey: publicKey, secretKey: secretKey)
    }

    /// The file's text: secret and public key, with a comment.
    public func text(generated: Date = Date()) -> String {
        """
        #   ****  Generated on \(ISO8601DateFormatter().string(from: generated)) by modalwatch keygen  ****
        #   ZeroMQ CURVE **Secret** Certificate
        #   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions.

        metadata
        curve
            public-key = "\(publicKey)"
            secret-key = "\(secretKey)"

        """
    }

    /// Whether `key` is 40 characters of the Z85 alphabet.
    public static func isZ85Key(_ key: String) -> Bool {
        let alphabet = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")
        return key.count == 40 && key.allSatisfy { alphabet.contains($0) }
    }
}
