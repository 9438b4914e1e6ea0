#!/usr/bin/env python3
"""WAL pages per stored violation, history schema v2 against v3 (rows and
indexes growing at their end), on the same violations in commits of the same sizes.

The layouts measured here are the one-row-a-violation schemas (v2 to v4), which the daemon
converts to segments when it opens such a file; the segment store's own figures come from
`modalwatch-bench --only store`.

    modalwatch check STREAM --format json > /tmp/violations.ndjson
    python3 bench/history_wal.py /tmp/violations.ndjson --groups 14,100,1000

Each commit's pages are the frames it adds to the WAL: the WAL is checkpointed (PASSIVE, all
of it) after every commit, so that the next commit starts it over. The CPU is this
process's (Python's executemany binding each row, SQLite's B-trees), commits only. The v3 SQL is the one in
Sources/HistoryStore/ViolationHistory.swift; the daemon's own figure comes from
the `store` run of modalwatch-bench, which counts the same way.

SQLite's own instructions per violation (exact, whatever the machine's load), e.g.:

    valgrind --tool=callgrind --toggle-collect=sqlite3_step --callgrind-out-file=/tmp/h.cg \
        "$(python3 -c 'import sys; print(sys.executable)')" bench/history_wal.py V --groups 1000 --schemas v3 --page-size 8192
    callgrind_annotate /tmp/h.cg | grep 'PROGRAM TOTALS'     # divide by the violations
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time

# The v3/v4 table and its indexes, from which the schemas below are put together.
SEQ_TABLE = """
    CREATE TABLE violations (
        seq INTEGER PRIMARY KEY, id BLOB NOT NULL, fingerprint BLOB NOT NULL, rule TEXT NOT NULL,
        app TEXT NOT NULL, session TEXT NOT NULL, severity TEXT NOT NULL, ts INTEGER NOT NULL,
        observed INTEGER NOT NULL, json TEXT NOT NULL);
"""
KEY_INDEX = "CREATE UNIQUE INDEX violations_key ON violations(ts, id);\n"
OBSERVED_INDEX = "CREATE INDEX violations_observed ON violations(observed);\n"
APP_INDEX = "CREATE INDEX violations_app ON violations(app);\n"
RULE_INDEX = "CREATE INDEX violations_rule ON violations(rule);\n"
SESSION_INDEX = "CREATE INDEX violations_session ON violations(seq >> 12, session);\n"

SCHEMAS = {
    "v2": """
        CREATE TABLE violations (
            id BLOB NOT NULL, fingerprint BLOB NOT NULL, rule TEXT NOT NULL, app TEXT NOT NULL,
            session TEXT NOT NULL, severity TEXT NOT NULL, ts INTEGER NOT NULL, observed INTEGER NOT NULL,
            json TEXT NOT NULL, PRIMARY KEY (ts, id));
        CREATE INDEX violations_observed ON violations(observed);
        CREATE INDEX violations_app ON violations(app, observed);
        CREATE INDEX violations_rule ON violations(rule, observed);
        """,
    **{name: SEQ_TABLE + "".join(indexes) for name, indexes in {
        "v3": [KEY_INDEX, OBSERVED_INDEX, APP_INDEX, RULE_INDEX, SESSION_INDEX],
        # v4 (the daemon's now): v3 without the `observed` index, which no query read.
        "v4": [KEY_INDEX, APP_INDEX, RULE_INDEX, SESSION_INDEX],
        # The floors: the table alone, and the table with the replay key (what one SQLite row costs).
        "table": [],
        "table+key": [KEY_INDEX],
    }.items()},
}
INSERT = """INSERT OR IGNORE INTO violations (id, fingerprint, rule, app, session, severity, ts, observed, json)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""


def rows(path: str) -> list[tuple]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("{"):
                continue
            v = json.loads(line)
            out.append((bytes.fromhex(v["id"]), bytes.fromhex(v["fingerprint"]), v["rule"], v["app"], v["session"],
                        v["severity"], v["ts"], v["observed"], line.rstrip("\n")))
    return out


def pages_per_violation(schema: str, violations: list[tuple], group: int, page_size: int = 4096) -> tuple[float, float]:
    """WAL pages and CPU µs (of this process, commits only, the checkpoints left out) per violation."""
    with tempfile.TemporaryDirectory(prefix="mw-wal-") as folder:
        db = sqlite3.connect(os.path.join(folder, "history.sqlite"), isolation_level=None)
        db.execute(f"PRAGMA page_size = {page_size}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA cache_size = -65536")
        db.execute("PRAGMA wal_autocheckpoint = 0")
        db.executescript(SCHEMAS[schema])
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        frames = 0
        cpu = 0.0
        for start in range(0, len(violations), group):
            began = time.process_time()
            db.execute("BEGIN")
            db.executemany(INSERT, violations[start:start + group])
            db.execute("COMMIT")
            cpu += time.process_time() - began
            _, log, done = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            assert log == done
            frames += log
        db.close()
        return frames / len(violations), cpu * 1e6 / len(violations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("violations", help="one violation a line, as `modalwatch check --format json` prints")
    parser.add_argument("--groups", default="14,100,1000", help="violations per commit, comma-separated")
    parser.add_argument("--schemas", default="v2,v3,v4", help=f"comma-separated, of: {', '.join(SCHEMAS)}")
    parser.add_argument("--page-size", type=int, default=4096, help="the file's page size (the daemon's: 8192)")
    args = parser.parse_args()
    violations = rows(args.violations)
    print(f"{len(violations)} violations; SQLite {sqlite3.sqlite_version}; {args.page_size}-byte pages")
    for group in (int(g) for g in args.groups.split(",")):
        figures = {schema: pages_per_violation(schema, violations, group, args.page_size) for schema in args.schemas.split(",")}
        print(f"commits of {group:>5}: " + ", ".join(
            f"{s} {p:.3f} WAL pages and {c:.2f} µs CPU per violation" for s, (p, c) in figures.items()))


if __name__ == "__main__":
    main()
