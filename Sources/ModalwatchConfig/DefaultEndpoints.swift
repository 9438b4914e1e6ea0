/// The endpoints the daemon binds when neither the configuration nor the command line names
/// others, and where the CLI looks for it (interfaces.md): one home for all of them.
public enum DefaultEndpoints: Sendable {
    /// Where the ingest `SUB` binds (and `modalwatch send` connects).
    public static let events = "tcp://127.0.0.1:7450"
    /// Where the violations `PUB` binds (and `modalwatch tail` connects).
    public static let publish = "tcp://127.0.0.1:7451"
    /// Where the control `REP` binds (and every CLI command that asks the daemon connects).
    public static let control = "tcp://127.0.0.1:7452"
}
