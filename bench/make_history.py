#!/usr/bin/env python3
"""Make a history file (the daemon's history.sqlite) holding N violations: of the current schema
(docs/spec/history.md, whose SQL this reads), for measuring `modalwatch report --state-dir` and the
queries on a large history; or, with `--released`, as 0.1.0 wrote it (Tests/Fixtures/history/0.1.0.sql),
for measuring the conversion the daemon makes at its first start on it (its log names each slice).

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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def current_schema() -> str:
    """The SQLite schema of docs/spec/history.md (its first SQL block) and its version."""
    text = (ROOT / "docs" / "spec" / "history.md").read_text()
    return text.split("```sql", 1)[1].split("```", 1)[0] + "\nPRAGMA user_version = 2;\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("violations", help="NDJSON violations, as `check --format json` prints them")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--released", action="store_true", help="0.1.0's file (schema version 1), which the daemon converts")
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
    db.executescript((ROOT / "Tests" / "Fixtures" / "history" / "0.1.0.sql").read_text() if args.released else current_schema())
    written, round_ = 0, 0
    while written < args.count:
        rows = []
        for v in base[: args.count - written]:
            n = written + len(rows)
            v = dict(v, session=f"{v['session']}-r{round_}", ts=v["ts"] + round_ * 86_400_000, observed=v.get("observed", 0) + n)
            v["id"] = f"{n:032x}"
            body = json.dumps(v, separators=(",", ":"), ensure_ascii=False)
            if args.released:
                rows.append((bytes.fromhex(v["id"]), bytes.fromhex(v["fingerprint"]), v["rule"], v["app"], v["session"],
                             v["severity"], v["ts"], v["observed"], body))
            else:
                rows.append((v["id"], v["fingerprint"], v["rule"], v["app"], v["session"], v["severity"], v["ts"], v["observed"], body))
        table = "violations" if args.released else "violation_rows"
        db.executemany(f"INSERT INTO {table} (id, fingerprint, rule, app, session, severity, ts, observed, json) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        written += len(rows)
        round_ += 1
    db.commit()
    db.close()
    print(f"{written} violations in {path}")


if __name__ == "__main__":
    main()
