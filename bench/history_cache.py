#!/usr/bin/env python3
"""What the history writer's page cache (`PRAGMA cache_size` in
Sources/HistoryStore/ViolationHistory.swift) buys on a large history: commits at the
retention bound, and the queries behind `modalwatch violations --rule` and `modalwatch
session ID`, for several cache sizes, on one v3 history of N rows.

The layouts measured here are the one-row-a-violation schemas (v2 to v4), which the daemon
converts to segments when it opens such a file; the segment store's own figures come from
`modalwatch-bench --only store`.

    modalwatch check --format json demo/stream.ndjson > /tmp/violations.ndjson
    python3 bench/history_cache.py /tmp/violations.ndjson --rows 1000000 --caches 65536,16384,8192,2000

Per cache size (KiB, SQLite's negative form), on a copy-free reopen of the same file (the OS
page cache warm, SQLite's cold):
- `commit`: the daemon's steady state at `max_rows`, `--commits` transactions each inserting
  `--group` new rows and deleting as many of the oldest (the prune), in the writer
  connection's WAL mode and `synchronous = NORMAL`; milliseconds per commit (median, p99);
- `rule`, `session`: the newest 100 rows of one rule (`violations_rule` backwards) and all
  the rows of one session (one seek per 4,096-row bucket, as `visit` does), each run
  `--repeat` times on the same connection; milliseconds, first and median of the rest.
  The daemon answers these on a read-only connection with SQLite's default cache (2000
  KiB), so the `2000` row is what a control query costs whatever the writer's cache is.
The RSS column is this process's after the run: give one cache size per run to compare it.
"""
from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import time

from history_wal import INSERT, SCHEMAS

SCHEMA = SCHEMAS["v3"]  # measured on v3; v4 only lacks the `observed` index
COLUMNS = """rowid, lower(hex(id)), lower(hex(fingerprint)), rule, app, session, severity, ts, observed, json"""


def make_rows(base: list[dict], start: int, count: int) -> list[tuple]:
    out = []
    for n in range(start, start + count):
        v = base[n % len(base)]
        round_ = n // len(base)
        session = f"{v['session']}-r{round_ // 50}"  # ~50 rounds of the stream per session name
        ts = v["ts"] + round_ * 1000
        body = dict(v, session=session, ts=ts, observed=n, id=f"{n:032x}")
        out.append((n.to_bytes(16, "big"), bytes.fromhex(v["fingerprint"]), v["rule"], v["app"], session,
                    v["severity"], ts, n, json.dumps(body, separators=(",", ":"))))
    return out


def rss_mib() -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("violations", help="NDJSON violations, as `check --format json` prints them")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--path", default="/tmp/modalwatch-history-cache.sqlite")
    parser.add_argument("--caches", default="65536,16384,8192,2000", help="cache sizes in KiB")
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--group", type=int, default=200, help="rows per commit")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    with open(args.violations) as handle:
        base = [json.loads(line) for line in handle if line.strip()]
    if not os.path.exists(args.path):
        db = sqlite3.connect(args.path)
        db.executescript(SCHEMA)
        for start in range(0, args.rows, 50_000):
            db.executemany(INSERT, make_rows(base, start, min(50_000, args.rows - start)))
        db.commit()
        db.execute("PRAGMA journal_mode = WAL")
        db.close()
    size_mib = os.path.getsize(args.path) / 2**20
    db = sqlite3.connect(args.path)
    total = db.execute("SELECT COUNT(*), MAX(seq) FROM violations").fetchone()
    rule = db.execute("SELECT rule FROM violations ORDER BY seq DESC LIMIT 1").fetchone()[0]
    session = db.execute("SELECT session FROM violations ORDER BY seq DESC LIMIT 1 OFFSET 5000").fetchone()[0]
    db.close()
    print(f"{args.path}: {total[0]} rows, {size_mib:.0f} MiB; rule {rule}, session {session}")
    next_row = total[1] + 1
    results = []
    for cache in [int(c) for c in args.caches.split(",")]:
        db = sqlite3.connect(args.path, isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute(f"PRAGMA cache_size = -{cache}")
        commits = []
        for _ in range(args.commits):
            batch = make_rows(base, next_row, args.group)
            next_row += args.group
            start = time.perf_counter()
            db.execute("BEGIN")
            db.executemany(INSERT, batch)
            db.execute("DELETE FROM violations WHERE seq IN (SELECT seq FROM violations ORDER BY seq LIMIT ?)", (args.group,))
            db.execute("COMMIT")
            commits.append((time.perf_counter() - start) * 1000)
            if len(commits) % 50 == 0:
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")

        def timed(sql: str, params: tuple) -> list[float]:
            out = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                db.execute(sql, params).fetchall()
                out.append((time.perf_counter() - start) * 1000)
            return out

        rule_ms = timed(f"SELECT {COLUMNS} FROM violations WHERE rule = ? ORDER BY rowid DESC LIMIT 100", (rule,))
        newest, oldest = db.execute("SELECT MAX(rowid), MIN(rowid) FROM violations").fetchone()

        def session_query() -> None:
            for bucket in range(newest >> 12, (oldest >> 12) - 1, -1):
                db.execute(f"""SELECT {COLUMNS} FROM violations INDEXED BY violations_session
                               WHERE (seq >> 12) = ? AND session = ? AND rowid <= ? ORDER BY rowid DESC""",
                           (bucket, session, newest)).fetchall()

        session_ms = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            session_query()
            session_ms.append((time.perf_counter() - start) * 1000)
        commits.sort()
        row = {
            "cache_kib": cache,
            "commit_ms_median": round(statistics.median(commits), 2),
            "commit_ms_p99": round(commits[int(len(commits) * 0.99) - 1], 2),
            "rule_ms_first": round(rule_ms[0], 2), "rule_ms_median": round(statistics.median(rule_ms[1:]), 2),
            "session_ms_first": round(session_ms[0], 2), "session_ms_median": round(statistics.median(session_ms[1:]), 2),
            "rss_mib": round(rss_mib(), 1),
        }
        db.close()
        results.append(row)
        print(row, flush=True)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"rows": total[0], "file_mib": round(size_mib), "group": args.group, "commits": args.commits,
                       "results": results}, handle, indent=2)


if __name__ == "__main__":
    main()
