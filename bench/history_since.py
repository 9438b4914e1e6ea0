#!/usr/bin/env python3
"""`violations --since` on a history of 1,000,000 rows in arrival order (schema v4: no index on
`observed`): the query filtered by `observed` alone (before) against the same query bounded by the
first young-enough rowid, found by binary search over rowid (after; ViolationHistory+SinceBound).
SQLite through Python's sqlite3; the same SQL the daemon runs. Writes /tmp/sh-since/h.sqlite (~400 MB).

The layouts measured here are the one-row-a-violation schemas (v2 to v4), which the daemon
converts to segments when it opens such a file; the segment store's own figures come from
`modalwatch-bench --only store`.

    python3 bench/history_since.py
"""
import sqlite3, time, os, random, statistics
path = "/tmp/sh-since/h.sqlite"; os.makedirs("/tmp/sh-since", exist_ok=True)
if os.path.exists(path): os.remove(path)
db = sqlite3.connect(path)
db.execute("PRAGMA page_size=8192"); db.execute("PRAGMA journal_mode=WAL")
db.execute("""CREATE TABLE violations (seq INTEGER PRIMARY KEY, id BLOB NOT NULL, fingerprint BLOB NOT NULL, rule TEXT NOT NULL,
 app TEXT NOT NULL, session TEXT NOT NULL, severity TEXT NOT NULL, ts INTEGER NOT NULL, observed INTEGER NOT NULL, json TEXT NOT NULL)""")
N = 1_000_000
t0 = 1_700_000_000_000
rows = ((os.urandom(16), os.urandom(8), f"rule-{n%12}", f"com.example.app{n%3}", f"S{n%20000}", "warning", t0+n*10, t0+n*10, "{" + "x"*300 + "}") for n in range(N))
db.executemany("INSERT INTO violations (id,fingerprint,rule,app,session,severity,ts,observed,json) VALUES (?,?,?,?,?,?,?,?,?)", rows)
for ix in ["CREATE UNIQUE INDEX violations_key ON violations(ts, id)", "CREATE INDEX violations_app ON violations(app)",
           "CREATE INDEX violations_rule ON violations(rule)", "CREATE INDEX violations_session ON violations(seq >> 12, session)"]:
    db.execute(ix)
db.commit()
since = t0 + (N - 1000) * 10   # the newest 1,000 rows (the last 10 s)
cols = "rowid, id, fingerprint, rule, app, session, severity, ts, observed, json"
def before():
    return db.execute(f"SELECT {cols} FROM violations WHERE observed >= ? ORDER BY rowid DESC LIMIT ?", (since, 10000)).fetchall()
def bound():
    lo = db.execute("SELECT MIN(rowid) FROM violations").fetchone()[0]; hi = db.execute("SELECT MAX(rowid) FROM violations").fetchone()[0] + 1
    while lo < hi:
        mid = lo + (hi - lo)//2
        r, o = db.execute("SELECT rowid, observed FROM violations WHERE rowid >= ? ORDER BY rowid LIMIT 1", (mid,)).fetchone()
        if o >= since: hi = mid
        else: lo = r + 1
    return lo
def after():
    b = bound()
    return db.execute(f"SELECT {cols} FROM violations WHERE observed >= ? AND rowid >= ? ORDER BY rowid DESC LIMIT ?", (since, b, 10000)).fetchall()
assert [r[0] for r in before()] == [r[0] for r in after()] and len(before()) == 1000
for name, f in [("before (observed >= since)", before), ("after (rowid >= bound)", after)]:
    times = []
    for _ in range(7):
        s = time.perf_counter(); f(); times.append((time.perf_counter()-s)*1000)
    print(f"{name}: median {statistics.median(times):.2f} ms (of 7), rows {len(f())}")
print("load", os.getloadavg())
