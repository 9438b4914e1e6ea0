import ArgumentParser

/// Options of every command that talks to the daemon's control socket.
struct ControlOptions: ParsableArguments {
    @Option(name: .long, help: "The daemon's control endpoint.")
    var control: String = "tcp://127.0.0.1:7452"

    @Option(name: .long, help: "Milliseconds to wait for the daemon before giving up (exit 3).")
    var timeout: Int = 3000

    @Flag(name: .long, help: "Machine-readable JSON output.")
    var json = false
}
