#!/usr/bin/env python3
"""The PostgreSQL history's capacity: violations a second stored by one daemon and by three
sharded daemons into one local server, and the daemons' CPU per violation, next to one daemon on SQLite.

    python3 bench/postgres_capacity.py [--events N] [--bin-dir .build/release]

Starts a throwaway server (scripts/postgres-throwaway.sh, fsync on), a generated stream
(bench/generate_stream.py), the daemons with history.store: postgresql, sends the stream as
fast as `modalwatch send` goes, and waits until every violation found is stored. Prints one
line a run: daemons, violations stored, seconds, violations/s, daemon CPU µs a violation."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--bin-dir", default=None)
    args = parser.parse_args()
    if args.bin_dir:
        os.environ["MODALWATCH_BIN_DIR"] = str(Path(args.bin_dir).resolve())
    import zmq
    import e2e_support as support
    import postgres_support as pg
    import shard_support as shard

    work = Path(tempfile.mkdtemp(prefix="mw-pgbench-"))
    stream = shard.generate_stream(work / "stream.ndjson", args.events, sessions=2000, seed=7)
    lines = args.events
    server = pg.Postgres()
    result = __import__("subprocess").run(["sh", str(pg.SCRIPT), "start", server.directory], capture_output=True, check=True)
    server.conninfo = result.stdout.decode().strip()
    context = zmq.Context()
    try:
        for store, count in (("sqlite", 1), ("postgresql", 1), ("postgresql", 3)):
            conninfo = server.make_database()
            daemons = []
            for index in range(count):
                folder = work / f"{store}{count}-{index}"
                folder.mkdir()
                config = pg.config_file(folder, conninfo) if store == "postgresql" else None
                extra = (["--config", str(config)] if config else []) + (["--shard", f"{index}/{count}", "--shard-key", "app"] if count > 1 else [])
                daemons.append(support.Daemon(context, folder, extra).start())
            before = [cpu_seconds(d.process.pid) for d in daemons]
            started = time.monotonic()
            shard.send([stream], [d.events for d in daemons], *(["--shard-count", str(count)] if count > 1 else []))
            statuses = shard.wait_received(daemons, lines, timeout=600)
            elapsed = time.monotonic() - started
            cpu = sum(cpu_seconds(d.process.pid) - b for d, b in zip(daemons, before))
            published = sum(s["violations_published"] for s in statuses)
            stored = int(server.sql(conninfo, "SELECT count(*) FROM modalwatch_violations")) if store == "postgresql" else \
                sum(s["violations_stored"] for s in statuses)
            assert stored == published, (stored, published)
            print(f"store={store} daemons={count} events={lines} violations_stored={stored} seconds={elapsed:.2f} "
                  f"violations_per_s={stored / elapsed:.0f} daemon_cpu_us_per_violation={cpu * 1e6 / max(stored, 1):.0f} "
                  f"(events, judging and publishing included)", flush=True)
            for daemon in daemons:
                daemon.stop()
    finally:
        context.destroy(linger=0)
        server.destroy()


if __name__ == "__main__":
    main()
