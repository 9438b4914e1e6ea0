#!/usr/bin/env python3
"""Make a history file (the daemon's history.sqlite, schema v2: one row a violation, as an older
release wrote it) holding N violations, for measuring the conversion to segments the daemon
makes when it opens such a file (its log names each slice), and `modalwatch report --state-dir`
on a large history (a read-only reader reads an unconverted file as it is).

The violations are those of a `modalwatch check --format json` run, repeated with their
session ids suffixed and their times shifted by a day per round until N are written, each
with a fresh id, so they look like N distinct violations of many sessions.

    modalwatch check --format json stream.ndjson > violations.ndjson
    python3 bench/make_history.py violations.ndjson --count 1000000 --state-dir /tmp/big
    /usr/bin/time -v modalwatch report --state-dir /tmp/big --output /tmp/big.html
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3

SCHEMA = """
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
CREATE TABLE violations (
    id BLOB NOT NULL, fingerprint BLOB NOT NULL, rule TEXT NOT NULL, app TEXT NOT NULL,
    session TEXT NOT NULL, severity TEXT NOT NULL, ts INTEGER NOT NULL, observed INTEGER NOT NULL,
    json TEXT NOT NULL, PRIMARY KEY (ts, id));
CREATE INDEX violations_observed ON violations(observed);
CREATE INDEX violations_app ON violations(app, observed);
CREATE INDEX violations_rule ON violations(rule, observed);
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("violations", help="NDJSON violations, as `check --format json` prints them")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--state-dir", required=True)
    args = parser.parse_args()
    with open(args.violations) as handle:
        base = [json.loads(line) for line in handle if line.strip()]
    if not base:
        raise SystemExit("no violations in the input")
    os.makedirs(args.state_dir, exist_ok=True)
    path = os.path.join(args.state_dir, "history.sqlite")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    written, round_ = 0, 0
    while written < args.count:
        rows = []
        for v in base[: args.count - written]:
            n = written + len(rows)
            v = dict(v, session=f"{v['session']}-r{round_}", ts=v["ts"] + round_ * 86_400_000, observed=v.get("observed", 0) + n)
            v["id"] = f"{n:032x}"
            rows.append((bytes.fromhex(v["id"]), bytes.fromhex(v["fingerprint"]), v["rule"], v["app"], v["session"],
                         v["severity"], v["ts"], v["observed"], json.dumps(v, separators=(",", ":"))))
        db.executemany("INSERT INTO violations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        written += len(rows)
        round_ += 1
    db.commit()
    db.close()
    print(f"{written} violations in {path}")


if __name__ == "__main__":
    main()
