import ArgumentParser
import ControlProtocol
import Foundation
import Glibc
import ModalwatchConfig
import ZeroMQ

/// `modalwatch keygen`: a CURVE key pair for encrypted ingest and publishing.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make a CURVE key pair for encrypted ingest and publishing.",
        discussion: """
            Writes the pair in ZeroMQ's certificate format (czmq and pyzmq's zmq.auth read it) to --output with \
            mode 0600, and prints the public key. For the daemon, name the file in the config's curve.key_file; \
            for a client, add its public key to curve.allowed_clients.
            """
    )

    @Option(name: .long, help: "Where to write the key pair (mode 0600). Without it, the pair is printed.")
    var output: String?

    @Flag(name: .long, help: "Replace an existing file.")
    var force = false

    @Flag(name: .long, help: "Machine-readable output: public_key, and file (with --output) or secret_key (without).")
    var json = false

    func run() throws {
        let pair: (publicKey: String, secretKey: String)
        do {
            pair = try ZMQ.curveKeyPair()
        } catch {
            Terminal.error("this libzmq was built without CURVE: \(error)")
            throw ExitCode(1)
        }
        let file = CurveKeyFile(publicKey: pair.publicKey, secretKey: pair.secretKey)
        guard let output else {
            if json {
                JSONOutput.line(["public_key": .string(pair.publicKey), "secret_key": .string(pair.secretKey)])
            } else {
                print(file.text(), terminator: "")
            }
            return
        }
        if FileManager.default.fileExists(atPath: output) && !force {
            Terminal.error("\(output) exists; pass --force to replace it")
            throw ExitCode(2)
        }
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            Terminal.error("cannot write \(output): \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        fchmod(descriptor, 0o600)
        let bytes = Array(file.text().utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else {
            Terminal.error("cannot write \(output): \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        if json {
            JSONOutput.line(["public_key": .string(pair.publicKey), "file": .string(output)])
        } else {
            print(pair.publicKey)
        }
    }
}
