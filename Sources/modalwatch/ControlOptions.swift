import ArgumentParser
import ControlProtocol
import ModalwatchConfig

/// Options of every command that talks to the daemon's control socket.
struct ControlOptions: ParsableArguments {
    @Option(name: .long, help: "The daemon's control endpoint.")
    var control: String = DefaultEndpoints.control

    @Option(name: .long, help: "Milliseconds to wait for the daemon before giving up (exit 3).")
    var timeout: Int = 3000

    @Flag(name: .long, help: "Machine-readable JSON output.")
    var json = false

    func validate() throws {
        if timeout < 1 || timeout > 600_000 { throw ValidationError("--timeout must be 1 to 600000 ms") }
    }

    /// A client for the control endpoint with this timeout.
    var client: ControlClient { ControlClient(endpoint: control, timeoutMs: timeout) }
}
