import ArgumentParser

/// `modalwatch history`: the whole history, out of a store and into another.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Export the whole violation history, or import an SQLite history into PostgreSQL.",
        discussion: "Reads the stores directly, as `violations --state-dir` and `--postgresql` do: no daemon needed.",
        subcommands: [HistoryExportCommand.self, HistoryImportCommand.self]
    )
}
