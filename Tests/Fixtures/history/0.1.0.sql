-- The schema of a history.sqlite written by modalwatch 0.1.0 (history schema version 1: GRDB's
-- migrations v1 to v4 applied), as SQLite holds it. Tests make 0.1.0 files from it to check
-- their conversion; the daemon itself never creates one.
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES ('v1'), ('v2'), ('v3'), ('v4');
CREATE TABLE violations (
    seq INTEGER PRIMARY KEY,
    id BLOB NOT NULL,
    fingerprint BLOB NOT NULL,
    rule TEXT NOT NULL,
    app TEXT NOT NULL,
    session TEXT NOT NULL,
    severity TEXT NOT NULL,
    ts INTEGER NOT NULL,
    observed INTEGER NOT NULL,
    json TEXT NOT NULL
);
CREATE UNIQUE INDEX violations_key ON violations(ts, id);
CREATE INDEX violations_app ON violations(app);
CREATE INDEX violations_rule ON violations(rule);
CREATE INDEX violations_session ON violations(seq >> 12, session);
