/// One measurement of `modalwatch-bench`, picked by its `name` with `--only`: it measures, adds its
/// rows to the run's table and keeps what the Targets table needs in the run.
protocol Measurement {
    /// The name `--only` takes.
    static var name: String { get }
    /// Whether a run without `--only` makes it (the long ones, or those needing a server or root, do not).
    static var isDefault: Bool { get }
    /// Measures, with the run's options, stream, daemon and table.
    static func measure(in run: BenchRun) throws
}

extension Measurement {
    static var isDefault: Bool { true }
}
