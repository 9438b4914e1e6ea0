/// Time from start to READY: `posix_spawn` of `modalwatchd` until its READY=1 arrives
/// on the bench's notify socket (the daemon sends it once every socket is bound, the
/// modules are loaded and the history is open), on a fresh state folder each time.
struct StartupBenchmark {
    /// The daemon's executable.
    let executable: String
    /// Where its folders go.
    let folder: String
    /// Children to clean up.
    let registry: ChildRegistry
    /// Launches.
    let runs: Int

    /// Each launch's time to READY, in ms, in order.
    func run() throws(BenchError) -> [Double] {
        var times: [Double] = []
        for _ in 0..<runs {
            let daemon = try DaemonProcess(executable: executable, folder: folder, registry: registry)
            times.append(Double(daemon.readyNanoseconds) / 1e6)
            daemon.stop()
        }
        return times
    }
}
