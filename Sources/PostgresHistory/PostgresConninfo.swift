import CLibPQ

/// A libpq connection string or URI as the configuration and the command line give it.
public enum PostgresConninfo: Sendable {
    /// Throws a one-line error when `conninfo` is not a connection string or URI libpq reads,
    /// or (with `passwordAllowed` false: the daemon's configuration file) when it holds a password,
    /// which belongs in `~/.pgpass` or `PGPASSFILE`.
    public static func check(_ conninfo: String, passwordAllowed: Bool) throws(PostgresError) {
        let options = try parse(conninfo)
        if !passwordAllowed, options.contains(where: { $0.keyword == "password" && !$0.value.isEmpty }) {
            throw PostgresError(
                "the PostgreSQL connection string holds a password; put it in ~/.pgpass or the file PGPASSFILE names instead"
            )
        }
    }

    /// `conninfo`'s settings as `keyword=value` pairs, a password left out: for `status` and logs.
    public static func redacted(_ conninfo: String) -> String {
        guard let options = try? parse(conninfo) else { return "(unreadable connection string)" }
        return options.filter { $0.keyword != "password" }.map { "\($0.keyword)=\($0.value)" }.joined(separator: " ")
    }

    /// The keywords `conninfo` sets, with their values.
    private static func parse(_ conninfo: String) throws(PostgresError) -> [(keyword: String, value: String)] {
        var message: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(conninfo, &message) else {
            let text = message.map { PostgresConnection.oneLine($0) } ?? "out of memory"
            if let message { PQfreemem(message) }
            throw PostgresError("the PostgreSQL connection string cannot be read: \(text)")
        }
        defer { PQconninfoFree(parsed) }
        var options: [(keyword: String, value: String)] = []
        var at = parsed
        while let keyword = at.pointee.keyword {
            if let value = at.pointee.val { options.append((String(cString: keyword), String(cString: value))) }
            at += 1
        }
        return options
    }
}
