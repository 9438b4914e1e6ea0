"""The daemon's threads as the operator sees them (`top -H`, `perf sched`, `/proc/PID/task`):
each named for its work, and the checkpoint thread nicer than the ones that judge and publish."""
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


def test_the_threads_are_named_and_the_checkpointer_runs_nicer(daemon):
    pid = daemon.process.pid
    def named() -> dict[str, int] | None:
        found = threads(pid)
        return found if "mw-checkpoint" in found else None

    seen = support.poll_until(named, timeout=10)
    assert {"mw-ingest", "mw-publish", "mw-control", "mw-checkpoint"} <= seen.keys(), seen
    own = os.getpriority(os.PRIO_PROCESS, pid)
    assert seen["mw-ingest"] == own and seen["mw-publish"] == own, seen
    assert seen["mw-checkpoint"] == min(19, own + 10), seen
