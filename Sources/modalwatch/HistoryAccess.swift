import ArgumentParser
import Foundation
import Glibc
import HistoryStore
import PostgresHistory

/// Opening a history for the command line (`violations`, `report`, `history export`, `history
/// import`): the SQLite file of a state directory, or the shared history in PostgreSQL. A history
/// that cannot be opened is one line on stderr that says why and what to do, and exit 2.
enum HistoryAccess {
    /// The path of the history file in `stateDir`.
    static func path(inStateDirectory stateDir: String) -> String {
        stateDir + "/" + ViolationHistory.fileName
    }

    /// The SQLite history in `stateDir`, opened read-only. When it is not there, or cannot be read
    /// (`EACCES`: the state directory is its owner's alone, 0700, unless `history.group` is set),
    /// prints one line that says so and what to do, and exits 2.
    static func stateDirectory(_ stateDir: String) throws -> ViolationHistory {
        let path = path(inStateDirectory: stateDir)
        if let problem = unreadable(path, stateDir: stateDir) {
            Terminal.error(problem)
            throw ExitCode(2)
        }
        do {
            return try ViolationHistory(path: path, readOnly: true)
        } catch {
            // SQLite opens the WAL and its index beside the file: those may be the ones refused.
            for companion in [path + "-wal", path + "-shm"] where access(companion, R_OK) != 0 && errno == EACCES {
                Terminal.error(permissionDenied(companion, stateDir: stateDir))
                throw ExitCode(2)
            }
            Terminal.error("cannot read the history at \(path): \(error)")
            throw ExitCode(2)
        }
    }

    /// Why the history file at `path` cannot be read, in one line; nil when it can (as far as
    /// `stat` and `access` tell: the real user's permissions).
    static func unreadable(_ path: String, stateDir: String) -> String? {
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            switch code {
            case EACCES: return permissionDenied(path, stateDir: stateDir)
            case ENOENT, ENOTDIR: return "no history at \(path); is --state-dir the daemon's state directory?"
            default: return "cannot read \(path): \(String(cString: strerror(code))) (errno \(code))"
            }
        }
        if access(path, R_OK) != 0 {
            let code = errno
            return code == EACCES
                ? permissionDenied(path, stateDir: stateDir)
                : "cannot read \(path): \(String(cString: strerror(code))) (errno \(code))"
        }
        return nil
    }

    /// The line for a history file (or its WAL) the user may not read: the state directory is the
    /// daemon's user's alone unless the daemon's configuration names a group that may read it.
    static func permissionDenied(_ path: String, stateDir: String) -> String {
        var info = stat()
        var owner = "the daemon's"
        if stat(stateDir, &info) == 0, let entry = getpwuid(info.st_uid), let name = entry.pointee.pw_name {
            owner = "the \(String(cString: name))"
        }
        return "cannot read \(path): permission denied; the state directory is the daemon's user's alone: "
            + "set `history.group: GROUP` in the daemon's configuration and join that group, or run as \(owner) user"
    }

    /// The shared history in PostgreSQL at `conninfo`: a reader, or a writer (which creates or
    /// migrates the schema, as the daemon does). When it cannot be opened, prints one line with
    /// the server's error and a hint (`hint(for:)`), and exits 2.
    static func postgresql(
        _ conninfo: String,
        writer: Bool,
        applicationName: String = "modalwatch"
    ) throws -> PostgresHistory {
        do {
            return try PostgresHistory(conninfo: conninfo, writer: writer, applicationName: applicationName)
        } catch {
            Terminal.error(
                "cannot \(writer ? "open" : "read") the history in PostgreSQL (\(PostgresConninfo.redacted(conninfo))): \(error); \(hint(for: error, writing: writer))"
            )
            throw ExitCode(2)
        }
    }

    /// What to do about a PostgreSQL error: for a role the server does not know, or one without
    /// the privileges to read, where docs/postgresql.md says how to make a reader role; else to
    /// check `--postgresql`. `writing`: the error is a writer's (`history import`), whose role
    /// is the daemons' own.
    static func hint(for error: any Error, writing: Bool = false) -> String {
        let text = "\(error)"
        let state = (error as? PostgresError)?.sqlState
        if text.contains("role \"") && text.contains("does not exist") {
            if writing { return "name the role the daemons write with, user= in --postgresql (docs/postgresql.md)" }
            return
                "a person reads the history through a PostgreSQL role of their own: see \"Read-only roles\" in docs/postgresql.md (CREATE ROLE … LOGIN, GRANT SELECT), or name another role with user= in --postgresql"
        }
        if state == "42501" || text.contains("permission denied") {
            if writing {
                return
                    "the role may not create or write the history's tables: use the role the daemons write with (docs/postgresql.md)"
            }
            return
                "the role may not read the history: grant it the reader's privileges in \"Read-only roles\" in docs/postgresql.md"
        }
        if text.contains("Peer authentication failed") {
            return
                "the server's pg_hba.conf maps this user to no such role: see \"Read-only roles\" in docs/postgresql.md"
        }
        return "check --postgresql"
    }
}
