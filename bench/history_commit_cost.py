#!/usr/bin/env python3
"""SQLite's instructions per commit and per stored violation (callgrind: exact, whatever the
machine's load), for commits of a few sizes, page sizes and history schemas.

The layouts measured here are the one-row-a-violation schemas (v2 to v4), which the daemon
converts to segments when it opens such a file; the segment store's own figures come from
`modalwatch-bench --only store`.

    modalwatch check STREAM --format json > /tmp/violations.ndjson
    python3 bench/history_commit_cost.py /tmp/violations.ndjson --groups 1,10,100,1000 --page-sizes 4096,8192

For each (schema, page size), a history is first filled with `--prefill` violations (not
measured: the B-trees are then as deep as a working daemon's), then `--rows` more are stored
in commits of each size under `valgrind --tool=callgrind --toggle-collect=sqlite3_step` (the
inserts and the COMMIT; the WAL is checkpointed every 1,000 rows, its cost taken out). The
instructions per violation at each commit size are fitted by least squares to
`row + commit / size`: `row` is what a stored violation costs, `commit` what a transaction
costs on its own (mostly the WAL frames it writes: a checksum and a copy of every page it
touched). WAL frames per commit are counted too. The SQL is ViolationHistory.swift's.
"""
from __future__ import annotations

import argparse
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

# The table, its indexes, the insert and the rows: history_wal.py's (one definition of the SQL).
from history_wal import APP_INDEX, INSERT, KEY_INDEX, RULE_INDEX, SEQ_TABLE, SESSION_INDEX, rows  # noqa: E402

INDEXES = {"key": KEY_INDEX, "app": APP_INDEX, "rule": RULE_INDEX, "session": SESSION_INDEX}
SCHEMAS = {
    # The daemon's v4: the replay key, app, rule and session (in buckets of 4,096 rows).
    "v4": ["key", "app", "rule", "session"],
    "table": [],
    "table+key": ["key"],
    "v4-app": ["key", "rule", "session"],
    "v4-rule": ["key", "app", "session"],
    "v4-session": ["key", "app", "rule"],
}


def connect(path: str, page_size: int) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA page_size = {page_size}")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA cache_size = -16384")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    return db


def fill(path: str, schema: str, page_size: int, violations: list[tuple]) -> None:
    db = connect(path, page_size)
    db.executescript(SEQ_TABLE + "".join(INDEXES[i] for i in SCHEMAS[schema]))
    for start in range(0, len(violations), 1000):
        db.execute("BEGIN")
        db.executemany(INSERT, violations[start:start + 1000])
        db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def measured(path: str, page_size: int, violations: list[tuple], group: int) -> None:
    """The part run under callgrind: `violations` stored in commits of `group`; prints WAL frames."""
    db = connect(path, page_size)
    frames = 0
    for start in range(0, len(violations), group):
        db.execute("BEGIN")
        db.executemany(INSERT, violations[start:start + group])
        db.execute("COMMIT")
        if (start + group) % 1000 < group or start + group >= len(violations):
            _, log, _ = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            frames += log
    db.close()
    print(f"frames {frames}")


def collected(out: str) -> tuple[int, int]:
    """Instructions inside sqlite3_step, and of those in the WAL checkpoints."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                          capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"^([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", text, re.M).group(1).replace(",", ""))
    checkpoint = 0
    for line in text.splitlines():
        if re.search(r"\bsqlite3WalCheckpoint\b", line):
            checkpoint = int(line.split()[0].replace(",", ""))
            break
    return total, checkpoint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("violations")
    parser.add_argument("--groups", default="1,10,100,1000")
    parser.add_argument("--page-sizes", default="4096,8192")
    parser.add_argument("--schemas", default="v4", help=f"comma-separated, of: {', '.join(SCHEMAS)}")
    parser.add_argument("--prefill", type=int, default=20000)
    parser.add_argument("--rows", type=int, default=2000, help="violations measured at each commit size")
    parser.add_argument("--measure", nargs=3, metavar=("FILE", "PAGE_SIZE", "GROUP"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    violations = rows(args.violations)
    if args.measure:
        path, page_size, group = args.measure
        measured(path, int(page_size), violations[args.prefill:args.prefill + args.rows], int(group))
        return
    if len(violations) < args.prefill + args.rows:
        sys.exit(f"need {args.prefill + args.rows} violations, the file has {len(violations)}")
    groups = [int(g) for g in args.groups.split(",")]
    print(f"SQLite {sqlite3.sqlite_version}; {args.prefill} rows before, {args.rows} measured per commit size")
    for schema in args.schemas.split(","):
        for page_size in (int(p) for p in args.page_sizes.split(",")):
            points = []
            for group in groups:
                with tempfile.TemporaryDirectory(prefix="mw-commit-") as folder:
                    path = os.path.join(folder, "history.sqlite")
                    fill(path, schema, page_size, violations[:args.prefill])
                    out = os.path.join(folder, "cg.out")
                    run = subprocess.run(
                        ["valgrind", "--tool=callgrind", "--toggle-collect=sqlite3_step", f"--callgrind-out-file={out}",
                         sys.executable, __file__, args.violations, "--prefill", str(args.prefill), "--rows", str(args.rows),
                         "--measure", path, str(page_size), str(group)],
                        capture_output=True, text=True, check=True)
                    frames = int(re.search(r"frames (\d+)", run.stdout).group(1))
                    total, checkpoint = collected(out)
                per_row = (total - checkpoint) / args.rows
                points.append((group, per_row))
                print(f"{schema:>10} {page_size:>5} B pages, commits of {group:>5}: {per_row:>9,.0f} instructions "
                      f"and {frames / args.rows * group:7.2f} WAL frames per commit / group "
                      f"({frames / args.rows:.3f} per violation)", flush=True)
            # Least squares of y = row + commit * (1 / group).
            xs = [1 / g for g, _ in points]
            ys = [y for _, y in points]
            n = len(xs)
            mx, my = sum(xs) / n, sum(ys) / n
            sxx = sum((x - mx) ** 2 for x in xs)
            commit = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0
            row = my - commit * mx
            print(f"{schema:>10} {page_size:>5} B pages: ~{row:,.0f} instructions per violation + ~{commit:,.0f} per commit")


if __name__ == "__main__":
    main()
