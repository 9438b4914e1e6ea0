"""The daemon's threads as the operator sees them (`top -H`, `perf sched`, `/proc/PID/task`):
each named for its work, all at the daemon's own priority."""
from __future__ import annotations

import os
from pathlib import Path

import e2e_support as support


def threads(pid: int) -> dict[str, int]:
    """Thread name → nice value (field 19 of /proc/PID/task/TID/stat)."""
    found: dict[str, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            stat = (task / "stat").read_text()
        except OSError:
            continue  # a thread that ended meanwhile
        fields = stat[stat.rindex(")") + 2:].split()
        found[name] = int(fields[16])
    return found


def test_the_threads_are_named_and_run_at_the_daemons_priority(daemon):
    pid = daemon.process.pid
    def named() -> dict[str, int] | None:
        found = threads(pid)
        return found if {"mw-checkpoint", "mw-sessions"} <= found.keys() else None

    seen = support.poll_until(named, timeout=10)
    assert {"mw-ingest", "mw-publish", "mw-control", "mw-checkpoint", "mw-sessions"} <= seen.keys(), seen
    own = os.getpriority(os.PRIO_PROCESS, pid)
    assert all(seen[name] == own for name in ("mw-ingest", "mw-publish", "mw-control", "mw-checkpoint", "mw-sessions")), seen
