#!/usr/bin/env python3
"""The crash trial (docs/RELIABILITY.md, "Sessions survive a restart, after any end"): `modalwatch
send` sends the stress stream at a steady rate to one daemon, which is killed KILLS times at random
moments during the send (SIGKILL, or with --oom the kernel's OOM killer in a memory cgroup) and
started again on its state directory and endpoints RESTART_DELAY seconds later. Then the history
is compared by id with `modalwatch check` of the same events: ids missing, extra, stored twice,
stored with other fields, and on app `-`.

    python3 bench/crash_trial.py --events 40000 --rate 2000 --kills 2
    python3 bench/crash_trial.py --events 40000 --rate 2000 --kills 10
    sudo python3 bench/crash_trial.py --events 40000 --rate 2000 --kills 1 --oom

--replay-window is `modalwatch send`'s (0: no replay); to lose nothing it must hold what is sent
over a checkpoint interval and the time the daemon is down (rate × (checkpoint_interval + down)).
With --oom, at each kill the daemon is moved into a memory cgroup (cgroup v1,
/sys/fs/cgroup/memory) limited to OOM_HEADROOM bytes more than it then uses, and a second
producer starts fresh sessions until the kernel kills it; it is started again outside the cgroup.

Uses .build/release when it holds modalwatchd, else .build/debug (MODALWATCH_BIN_DIR overrides),
and the e2e suite's helpers (Tests/e2e). Prints one JSON object; exit 0 when the history holds
exactly check's ids, each once, none on app `-`; 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if "MODALWATCH_BIN_DIR" not in os.environ and (ROOT / ".build/release/modalwatchd").exists():
    os.environ["MODALWATCH_BIN_DIR"] = str(ROOT / ".build/release")
sys.path.insert(0, str(ROOT / "Tests/e2e"))

import zmq  # noqa: E402

import e2e_support as support  # noqa: E402
import shard_support as shard  # noqa: E402

CGROUP = Path("/sys/fs/cgroup/memory/modalwatch-crash-trial")


def kill_times(duration: float, kills: int, spacing: float, rng: random.Random) -> list[float]:
    """`kills` moments within the middle 80 % of the send, at least `spacing` seconds apart."""
    for _ in range(10_000):
        moments = sorted(rng.uniform(0.1 * duration, 0.9 * duration) for _ in range(kills))
        if all(b - a >= spacing for a, b in zip(moments, moments[1:])):
            return moments
    raise SystemExit(f"{kills} kills {spacing} s apart do not fit in a send of {duration:.1f} s: lower --rate")


def oom_kill(daemon: support.Daemon, zctx: zmq.Context, headroom: int) -> float:
    """Moves the daemon into a memory cgroup with `headroom` bytes to spare and floods it with new
    sessions until the kernel's OOM killer ends it; returns the seconds that took."""
    CGROUP.mkdir(exist_ok=True)
    (CGROUP / "memory.limit_in_bytes").write_text("-1")
    (CGROUP / "cgroup.procs").write_text(str(daemon.process.pid))
    usage = int((CGROUP / "memory.usage_in_bytes").read_text())
    (CGROUP / "memory.limit_in_bytes").write_text(str(usage + headroom))
    flood = zctx.socket(zmq.PUB)
    flood.setsockopt(zmq.LINGER, 0)
    flood.connect(daemon.events)
    started = time.monotonic()
    n = 0
    try:
        while daemon.process.poll() is None:
            if time.monotonic() - started > 60:
                raise SystemExit("the OOM killer did not end the daemon within 60 s")
            batch = "\n".join(json.dumps({"v": 1, "type": "session.start", "session": f"flood-{n + i}", "ts": 1_732_290_000_000,
                                          "app": "com.example.flood"}) for i in range(1000))
            n += 1000
            try:
                flood.send_multipart([b"ui/flood", batch.encode()], flags=zmq.NOBLOCK)
            except zmq.Again:
                time.sleep(0.001)
    finally:
        flood.close()
    daemon.process.wait(timeout=10)
    try:
        CGROUP.rmdir()
    except OSError:
        pass
    if daemon.process.returncode != -signal.SIGKILL:
        raise SystemExit(f"the daemon ended with {daemon.process.returncode}, not the OOM killer's SIGKILL")
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=40_000)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--rate", type=int, default=2000, help="events per second `send` offers")
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--replay-window", type=int, default=40_000, help="`send --replay-window` (0: no replay)")
    parser.add_argument("--restart-delay", type=float, default=0.5, help="seconds the daemon stays down")
    parser.add_argument("--checkpoint-interval", default="5s")
    parser.add_argument("--oom", action="store_true", help="the kernel's OOM killer instead of SIGKILL (root)")
    parser.add_argument("--oom-headroom", type=int, default=64 << 20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="mw-crash-trial-"))
    stream = shard.generate_stream(folder / "stress.ndjson", args.events, sessions=args.sessions, seed=args.seed)
    reference = shard.reference_violations([stream])
    config = folder / "modalwatchd.yaml"
    config.write_text(f"checkpoint_interval: {args.checkpoint_interval}\n")
    zctx = zmq.Context()
    daemon = support.Daemon(zctx, folder, extra_args=["--config", str(config)]).start(ready_timeout=30)
    duration = args.events / args.rate
    moments = kill_times(duration, args.kills, args.restart_delay + 1.5, random.Random(args.seed))
    result: dict = {}
    sender = threading.Thread(target=lambda: result.update(run=support.run_cli(
        ["send", str(stream), "--events", daemon.events, "--rate", str(args.rate),
         "--replay-window", str(args.replay_window), "--json"], timeout=duration * 3 + 120)))
    began = time.monotonic()
    sender.start()
    kills = []
    for moment in moments:
        time.sleep(max(0.0, began + moment - time.monotonic()))
        at = time.monotonic() - began
        took = oom_kill(daemon, zctx, args.oom_headroom) if args.oom else None
        if not args.oom:
            daemon.process.send_signal(signal.SIGKILL)
            daemon.process.wait(timeout=10)
        time.sleep(args.restart_delay)
        shard.restart_on_same_endpoints(daemon, timeout=60)
        restored = [line for line in daemon.log().splitlines() if "restored sessions from the newest checkpoint" in line]
        kills.append({"at_s": round(at, 2), "oom_s": took and round(took, 2), "restored": restored[-1][-160:] if restored else None})
    sender.join()
    run = result["run"]
    sent = json.loads(run.stdout.decode().splitlines()[-1]) if run.returncode == 0 else {"error": run.stderr.decode()[-500:]}
    # Settled: everything found is stored (or was already) and published, nothing more comes.
    previous = None
    for _ in range(240):
        status = daemon.status()
        now = (status["events_received"], status["violations_found"])
        if now == previous and status["violations_stored"] + status["violations_already_stored"] == status["violations_found"]:
            break
        previous = now
        time.sleep(0.5)
    daemon.stop()
    rows = support.history_violations(folder / "state")
    stored = {}
    differing = 0
    for row in rows:
        violation = support.without_observed(json.loads(row["json"]))
        if violation["id"] in reference and violation != reference[violation["id"]]:
            differing += 1
        stored[violation["id"]] = violation
    copies = Counter(row["id"] for row in rows)
    summary = {
        "events": args.events, "rate": args.rate, "replay_window": args.replay_window, "kills": kills,
        "checkpoint_interval": args.checkpoint_interval, "oom": args.oom,
        "check_violations": len(reference), "history_rows": len(rows),
        "missing": len(set(reference) - set(stored)), "extra": len(set(stored) - set(reference)),
        "stored_twice": sum(1 for n in copies.values() if n > 1), "differing": differing,
        "on_app_dash": sum(1 for row in rows if row["app"] == "-"),
        "send": {k: sent.get(k) for k in ("events_sent", "events_replayed", "events_dropped_no_subscriber", "replay_window_overflows", "error")},
        "daemon": {k: status.get(k) for k in ("duplicates", "violations_already_stored", "events_lost", "rejected_by_reason")},
        "folder": str(folder),
    }
    print(json.dumps(summary, indent=1))
    clean = summary["missing"] == summary["extra"] == summary["stored_twice"] == summary["differing"] == summary["on_app_dash"] == 0
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
