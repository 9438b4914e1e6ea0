import ArgumentParser
import ControlProtocol
import ModalwatchConfig

/// Options of every command that talks to the daemon's control socket.
struct ControlOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "A daemon's control endpoint (default: $MODALWATCH_CONTROL, else control: of the daemon's config file, else \(DefaultEndpoints.control)); repeat it for sharded daemons, which then answer as one."
    )
    var control: [String] = []

    @Option(
        name: .long,
        help:
            "The daemon's config file, read for its control: endpoint (default: $MODALWATCH_CONFIG, else \(ConfigLoader.defaultPath) when readable)."
    )
    var config: String?

    @Option(name: .long, help: "Milliseconds to wait for the daemon before giving up (exit 3).")
    var timeout: Int = 3000

    @Flag(name: .long, help: "Machine-readable JSON output.")
    var json = false

    func validate() throws {
        if timeout < 1 || timeout > 600_000 { throw ValidationError("--timeout must be 1 to 600000 ms") }
        try location.validate()
    }

    /// Where the daemon is looked for: flags, environment, config file (interfaces.md).
    var location: DaemonLocation { DaemonLocation(configFlag: config) }

    /// The control endpoints: those named, else the environment's, else the config file's, else the default.
    var endpoints: [String] { location.control(control) }

    /// Every daemon named, asked as one, with this timeout (scale.md).
    var fleet: DaemonFleet { DaemonFleet(endpoints: endpoints, timeoutMs: timeout) }
}
