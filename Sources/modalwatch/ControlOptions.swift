import ArgumentParser
import ControlProtocol
import ModalwatchConfig

/// Options of every command that talks to the daemon's control socket.
struct ControlOptions: ParsableArguments {
    @Option(name: .long, help: "A daemon's control endpoint (default \(DefaultEndpoints.control)); repeat it for sharded daemons, which then answer as one.")
    var control: [String] = []

    @Option(name: .long, help: "Milliseconds to wait for the daemon before giving up (exit 3).")
    var timeout: Int = 3000

    @Flag(name: .long, help: "Machine-readable JSON output.")
    var json = false

    func validate() throws {
        if timeout < 1 || timeout > 600_000 { throw ValidationError("--timeout must be 1 to 600000 ms") }
    }

    /// The control endpoints named, or the default one.
    var endpoints: [String] { control.isEmpty ? [DefaultEndpoints.control] : control }

    /// Every daemon named, asked as one, with this timeout (scale.md).
    var fleet: DaemonFleet { DaemonFleet(endpoints: endpoints, timeoutMs: timeout) }
}
