import HistoryStore
import ModalwatchConfig
import PostgresHistory

extension DaemonConfiguration {
    /// Where the history is: PostgreSQL when `history.postgresql` is set (its connection string
    /// checked here: readable, no password), else `history.sqlite` in the state directory, else none.
    func historyTarget() throws(DaemonError) -> HistoryKeeper.Target? {
        if let conninfo = historyPostgreSQL {
            do throws(PostgresError) { try PostgresConninfo.check(conninfo, passwordAllowed: false) } catch {
                throw DaemonError(.configuration, "history.postgresql: \(error.description)")
            }
            return .postgresql(conninfo: conninfo, stateDirectory: stateDirectory)
        }
        return stateDirectory.map { .sqlite(path: $0 + "/" + ViolationHistory.fileName) }
    }
}
