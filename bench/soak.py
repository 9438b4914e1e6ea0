#!/usr/bin/env python3
"""Soak test: sustained load on a real modalwatchd, bounded in time.

Sessions start, run through alerts, sheets, modals and navigation, and end,
continuously, thousands at a time; the daemon's RSS, open file descriptors and
threads are sampled every few seconds. Prints a table, and a verdict: after a
warm-up, RSS must stay within --rss-growth (default 10 %) of its level after
the warm-up, and descriptors and threads must not grow.

    python3 bench/soak.py --seconds 180 --rate 50000

With --faults (root: it mounts a tmpfs), faults come on top of the load: a second
subscriber that stalls (reads nothing) for --stall seconds from each fill of the store on,
then catches up until the next; the state directory on a small tmpfs that is
filled up (the history cannot write: violations are spooled, then counted past the
spool's bound) and freed again every --fault-period seconds for --outage seconds, each
fill after a checkpoint that truncates the WAL (so that the daemon's writes need new
blocks: a history at its retention bound otherwise reuses the ones it has); and
a SIGHUP every --hup-every seconds. RSS is judged at the healthy point of each cycle
(just before the store is filled), where the spool is empty and the stalled subscriber
has caught up (RSS at the end of each stall, its queue at the fullest, is reported
beside it), and the counts are
reconciled at the end: published = stored + unstored, history rows = stored − pruned,
and what the keeping-up subscriber received against what was published.

    sudo python3 bench/soak.py --faults --seconds 1800 --rate 30000

Uses .build/release/modalwatchd when it exists, else .build/debug (MODALWATCH_BIN_DIR overrides).
Exit status: 0 flat, 1 something grew (or, with --faults, a count does not reconcile),
2 the daemon died or could not start.
"""
import argparse
import json
import os
import random
import shutil
import sqlite3
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zmq

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_figures(pid: int) -> tuple[int, int, int]:
    rss_kib = threads = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss_kib = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return rss_kib, fds, threads


def rss_parts(pid: int) -> dict:
    """RSS by kind (kB): anonymous (the heaps), file-backed and shared memory (a tmpfs file mapped, SQLite's -shm)."""
    parts = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("RssAnon:", "RssFile:", "RssShmem:")):
                key, value = line.split(":")
                parts[key.lower()] = int(value.split()[0])
    return parts


def fill(fs: Path) -> Path:
    """Writes a filler file until the filesystem is full."""
    filler = fs / "filler"
    with open(filler, "wb", buffering=0) as f:
        for size in (1 << 20, 65536, 4096, 512):
            chunk = b"\0" * size
            while True:
                try:
                    f.write(chunk)
                except OSError:
                    break
    return filler


def truncate_wal(history: Path) -> bool:
    """`PRAGMA wal_checkpoint(TRUNCATE)` from a connection of our own, as any connection may: the
    WAL goes to 0 bytes, so the daemon's next commits need new blocks. Without it a history at its
    retention bound writes only into blocks it has (freed pages, a WAL that the daemon's PASSIVE
    checkpoints start over), and a full disk would not fail a single write. True when it ran."""
    try:
        db = sqlite3.connect(str(history), timeout=2)
        try:
            busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            return busy == 0
        finally:
            db.close()
    except sqlite3.Error:
        return False


def session_events(rng: random.Random, sid: str, t0: int) -> list[dict]:
    app = f"com.example.soak{rng.randrange(8)}"
    ts = t0
    out = [{"v": 1, "type": "session.start", "session": sid, "ts": ts, "app": app, "seq": 1}]
    seq = 1
    for i in range(rng.randrange(10, 30)):
        ts += rng.randrange(100, 3000)
        seq += 1
        kind = rng.random()
        base = {"v": 1, "session": sid, "ts": ts, "seq": seq}
        if kind < 0.3:
            out.append(dict(base, type="user.action", control="button", label="Share"))
        elif kind < 0.45:
            out.append(dict(base, type="alert.presented", id=f"a{i}", title="Delete this item?",
                            message="This cannot be undone.",
                            buttons=[{"title": "Cancel", "style": "cancel"}, {"title": "Delete", "style": "destructive"}]))
            ts += 800
            seq += 1
            out.append({"v": 1, "session": sid, "ts": ts, "seq": seq, "type": "alert.dismissed", "id": f"a{i}", "button": 0, "via": "button"})
        elif kind < 0.6:
            out.append(dict(base, type="modal.presented", id=f"m{i}", title="Compose",
                            buttons=[{"title": "Cancel", "role": "cancel"}, {"title": "Send", "role": "done"}]))
            ts += 500
            seq += 1
            out.append({"v": 1, "session": sid, "ts": ts, "seq": seq, "type": "nav.push", "screen": "To"})
            ts += 500
            seq += 1
            out.append({"v": 1, "session": sid, "ts": ts, "seq": seq, "type": "modal.dismissed", "id": f"m{i}", "via": "button", "button": 1})
        elif kind < 0.7:
            out.append(dict(base, type="sheet.presented", id=f"s{i}",
                            buttons=[{"title": "Delete", "style": "destructive"}, {"title": "Cancel", "style": "cancel"}]))
            ts += 400
            seq += 1
            out.append({"v": 1, "session": sid, "ts": ts, "seq": seq, "type": "sheet.dismissed", "id": f"s{i}", "button": 1, "via": "button"})
        else:
            out.append(dict(base, type="task.progress", task="sync", state=rng.choice(["started", "finished"])))
    ts += 1000
    out.append({"v": 1, "type": "session.end", "session": sid, "ts": ts, "seq": seq + 1})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--rate", type=int, default=50_000, help="events per second offered")
    parser.add_argument("--concurrent", type=int, default=2000, help="sessions interleaved at once")
    parser.add_argument("--sample", type=float, default=5, help="seconds between samples")
    parser.add_argument("--warmup", type=float, default=30, help="seconds before the baseline sample")
    parser.add_argument("--rss-growth", type=float, default=0.10)
    parser.add_argument("--json", help="write the samples and verdict here")
    parser.add_argument("--keep-log", help="copy the daemon's log here at the end")
    parser.add_argument("--faults", action="store_true", help="a stalled subscriber, a full store and SIGHUPs on top (root)")
    parser.add_argument("--fault-period", type=float, default=60, help="seconds between two fills of the store")
    parser.add_argument("--outage", type=float, default=10, help="seconds the store stays full each time")
    parser.add_argument("--hup-every", type=float, default=60, help="seconds between two SIGHUPs")
    parser.add_argument("--stall", type=float, default=None,
                        help="seconds the second subscriber stalls from each fill on (default: half the period); it reads the rest")
    parser.add_argument("--tmpfs-size", default="640m",
                        help="size of the state directory's tmpfs: the history with a minute of violations past max_rows, and its WAL, must fit")
    parser.add_argument("--settle", type=float, default=2.5,
                        help="seconds sending pauses at each healthy point once the daemon and the subscribers have caught up")
    parser.add_argument("--spool-memory", type=int, default=16 << 20, help="history.spool_memory (bytes)")
    args = parser.parse_args()
    if args.faults and os.geteuid() != 0:
        print("soak: --faults mounts a tmpfs for the state directory; run it as root", file=sys.stderr)
        return 2

    bindir = Path(os.environ.get("MODALWATCH_BIN_DIR") or (ROOT / ".build/release" if (ROOT / ".build/release/modalwatchd").exists() else ROOT / ".build/debug"))
    work = Path(tempfile.mkdtemp(prefix="modalwatch-soak-"))
    ports = [free_port() for _ in range(3)]
    events_ep, publish_ep, control_ep = (f"tcp://127.0.0.1:{p}" for p in ports)
    fs = work / "statefs"
    state = work / "state"
    extra: list[str] = []
    if args.faults:
        fs.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={args.tmpfs_size}", "tmpfs", str(fs)], check=True)
        state = fs / "state"
        (work / "faults.yaml").write_text(
            f"history: {{ max_rows: 40000, spool_memory: {args.spool_memory}, spool_file: 0 }}\n")
        extra = ["--config", str(work / "faults.yaml")]
    daemon = subprocess.Popen([str(bindir / "modalwatchd"), "--events", events_ep, "--publish", publish_ep,
                               "--control", control_ep, "--state-dir", str(state), "--log-level", "warning", *extra],
                              stdout=open(work / "daemon.log", "wb"), stderr=subprocess.STDOUT)
    ctx = zmq.Context()
    control = None

    def status() -> dict:
        nonlocal control
        for _ in range(3):
            if control is None:
                control = ctx.socket(zmq.REQ)
                control.linger = 0
                control.connect(control_ep)
            control.send_json({"cmd": "status"})
            if control.poll(5000):
                return control.recv_json()
            control.close()
            control = None
        raise RuntimeError("the daemon does not answer status")

    try:
        deadline = time.monotonic() + 10
        while True:
            if daemon.poll() is not None:
                print("soak: modalwatchd exited while starting; see", work / "daemon.log", file=sys.stderr)
                return 2
            try:
                status()
                break
            except RuntimeError:
                if time.monotonic() > deadline:
                    return 2
        pub = ctx.socket(zmq.PUB)
        pub.sndhwm = 0
        pub.linger = 0
        pub.connect(events_ep)
        sub = ctx.socket(zmq.SUB)  # a subscriber that keeps up
        sub.rcvhwm = 0
        sub.setsockopt(zmq.SUBSCRIBE, b"violation/")
        sub.connect(publish_ep)
        stalled = None
        if args.faults:
            stalled = ctx.socket(zmq.SUB)  # a subscriber that stalls, then catches up
            stalled.rcvhwm = 10
            stalled.setsockopt(zmq.SUBSCRIBE, b"")
            stalled.connect(publish_ep)
        filler = None
        fills = hups = truncations = 0
        next_fill = time.monotonic() + args.fault_period / 2
        next_hup = time.monotonic() + args.hup_every
        healthy_points = []
        stall_end_points = []
        was_stalling = False
        while status()["events_unknown_type"] == 0:
            pub.send(b'{"v":1,"type":"probe","session":"p","ts":0}')
            time.sleep(0.05)

        rng = random.Random(11)
        queues: list[list[dict]] = []
        next_session = 0
        t0 = 1_732_290_000_000
        sent = received_violations = 0
        samples = []
        started = time.monotonic()
        next_sample = started
        batch_size = 100
        while time.monotonic() - started < args.seconds:
            while len(queues) < args.concurrent:
                queues.append(session_events(rng, f"soak-{next_session}", t0 + next_session * 10))
                next_session += 1
            batch = []
            for _ in range(batch_size):
                i = rng.randrange(len(queues))
                batch.append(queues[i].pop(0))
                if not queues[i]:
                    queues[i] = queues[-1]
                    queues.pop()
                    if not queues:
                        break
            pub.send(b"\n".join(json.dumps(e, separators=(",", ":")).encode() for e in batch))
            sent += len(batch)
            while sub.poll(0):
                sub.recv_multipart()
                received_violations += 1
            due = started + sent / args.rate
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            now = time.monotonic()
            if args.faults:
                # The second subscriber stalls for --stall seconds from each fill on, then reads
                # (and catches up) until the next fill: each healthy point comes after its
                # catch-up, so RSS there measures the daemon, not the stalled queue. RSS is also
                # taken at the end of each stall, the queue at its fullest.
                stall = args.fault_period / 2 if args.stall is None else args.stall
                since_first_fill = now - (started + args.fault_period / 2)
                stalling = since_first_fill >= 0 and since_first_fill % args.fault_period < stall
                if not stalling:
                    if was_stalling:
                        rss, _, _ = proc_figures(daemon.pid)
                        stall_end_points.append({"t": round(now - started, 1), "rss_kib": rss})
                    while stalled.poll(0):
                        stalled.recv_multipart()
                was_stalling = stalling
                if filler is None and now >= next_fill:
                    # The healthy point of this cycle: the spool is empty. Sending pauses until the
                    # daemon has taken every event sent and both subscribers have read every
                    # violation (queues for slow readers are bounded by design; this measures the
                    # daemon, not them), then for --settle seconds (the daemon trims its heap every
                    # 2 s); the sender then catches up, so the average rate stays --rate.
                    settle_deadline = time.monotonic() + 30
                    while status()["events_received"] < sent and time.monotonic() < settle_deadline:
                        received_violations += drain(sub, 50)
                        drain(stalled, 0)
                    received_violations += drain(sub, 300)
                    drain(stalled, 300)
                    time.sleep(args.settle)
                    received_violations += drain(sub, 0)
                    drain(stalled, 0)
                    s = status()
                    rss, fds, threads = proc_figures(daemon.pid)
                    healthy_points.append({"t": round(now - started, 1), "rss_kib": rss, **rss_parts(daemon.pid), "fds": fds, "threads": threads,
                                           "history_state": s["history_state"], "spooled": s["violations_spooled"]})
                    if truncate_wal(state / "history.sqlite"):
                        truncations += 1
                    filler = fill(fs)
                    fills += 1
                elif filler is not None and now >= next_fill + args.outage:
                    filler.unlink()
                    filler = None
                    next_fill += args.fault_period
                if now >= next_hup:
                    daemon.send_signal(signal.SIGHUP)
                    hups += 1
                    next_hup += args.hup_every
            if now >= next_sample:
                next_sample = now + args.sample
                if daemon.poll() is not None:
                    print("soak: modalwatchd died; see", work / "daemon.log", file=sys.stderr)
                    return 2
                s = status()
                rss, fds, threads = proc_figures(daemon.pid)
                samples.append({"t": round(now - started, 1), "sent": sent, "received": s["events_received"],
                                "sessions_live": s["sessions_live"], "sessions_ended": s["sessions_ended"],
                                "violations": s["violations_published"], "rss_kib": rss, "fds": fds, "threads": threads,
                                "history_state": s.get("history_state"), "spooled": s.get("violations_spooled", 0),
                                "unstored": s.get("violations_unstored", 0)})
                row = samples[-1]
                print(f"{row['t']:>7} s  sent {row['sent']:>10}  in {row['received']:>10}  live {row['sessions_live']:>6}  "
                      f"ended {row['sessions_ended']:>8}  rss {row['rss_kib'] / 1024:>7.1f} MiB  fds {fds:>3}  threads {threads:>3}"
                      + (f"  store {row['history_state']:>7} spooled {row['spooled']:>6} unstored {row['unstored']:>6}" if args.faults else ""),
                      flush=True)
        if args.faults:
            return judge_faults(args, status, daemon, state, filler, samples, healthy_points, stall_end_points, sent, fills, hups,
                                lambda: drain(sub), received_violations, truncations)
        after = [s for s in samples if s["t"] >= args.warmup]
        if len(after) < 2:
            print("soak: too short to judge; raise --seconds above --warmup", file=sys.stderr)
            return 2
        base, last = after[0], after[-1]
        peak_rss = max(s["rss_kib"] for s in after)
        growth = (peak_rss - base["rss_kib"]) / base["rss_kib"]
        verdict = {
            "seconds": args.seconds, "offered_rate": args.rate, "events_sent": sent,
            "events_received": samples[-1]["received"], "sessions_ended": samples[-1]["sessions_ended"],
            "rss_after_warmup_kib": base["rss_kib"], "rss_peak_kib": peak_rss, "rss_growth": round(growth, 4),
            "fds": [base["fds"], max(s["fds"] for s in after)], "threads": [base["threads"], max(s["threads"] for s in after)],
            "violations_received_by_subscriber": received_violations,
        }
        flat = growth <= args.rss_growth and verdict["fds"][1] <= verdict["fds"][0] and verdict["threads"][1] <= verdict["threads"][0]
        verdict["flat"] = flat
        print(json.dumps(verdict, indent=2))
        if args.json:
            Path(args.json).write_text(json.dumps({"samples": samples, "verdict": verdict}, indent=2))
        return 0 if flat else 1
    finally:
        if daemon.poll() is None:
            daemon.send_signal(signal.SIGTERM)
            try:
                daemon.wait(timeout=15)
            except subprocess.TimeoutExpired:
                daemon.kill()
        ctx.destroy(linger=0)
        if args.faults:
            subprocess.run(["umount", "-l", str(fs)], capture_output=True)
        if args.keep_log:
            shutil.copyfile(work / "daemon.log", args.keep_log)
            print("soak: the daemon's log is in", args.keep_log, file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)


def drain(sub, wait_ms: int = 200) -> int:
    """Messages waiting on a subscriber, read until none comes for wait_ms."""
    n = 0
    while sub.poll(wait_ms):
        sub.recv_multipart()
        n += 1
    return n


def judge_faults(args, status, daemon, state: Path, filler, samples, healthy_points, stall_end_points, sent, fills, hups,
                 drain_rest, received_violations, truncations) -> int:
    """--faults: RSS at each cycle's healthy point, and the counts reconciled once the store is healthy."""
    if filler is not None:
        filler.unlink()
    deadline = time.monotonic() + 120
    while True:
        s = status()
        if s["events_received"] >= sent and s["history_state"] == "ok" and s["violations_spooled"] == 0:
            break
        if time.monotonic() > deadline:
            print("soak: the daemon did not catch up and empty its spool within 120 s", file=sys.stderr)
            return 1
        time.sleep(0.5)
    received_violations += drain_rest()
    s = status()
    db = sqlite3.connect(f"file:{state / 'history.sqlite'}?mode=ro", uri=True)
    rows = db.execute("SELECT COUNT(*) FROM violations").fetchone()[0]
    db.close()
    after = [p for p in healthy_points if p["t"] >= args.warmup]
    base = after[0]["rss_kib"] if after else None
    peak = max(p["rss_kib"] for p in after) if after else None
    low = min(p["rss_kib"] for p in after) if after else None
    verdict = {
        "seconds": args.seconds, "offered_rate": args.rate, "events_sent": sent, "events_received": s["events_received"],
        "fills": fills, "wal_truncations": truncations, "sighups": hups, "config_reloads": s["config_reloads"], "history_outages": s["history_outages"],
        "violations_published": s["violations_published"], "violations_stored": s["violations_stored"],
        "violations_unstored": s["violations_unstored"], "violations_recovered": s["violations_recovered"],
        "history_pruned": s["history_pruned"], "history_rows": rows,
        "violations_received_by_subscriber": received_violations, "subscriber_overflows": s["subscriber_overflows"],
        "rss_at_healthy_points_kib": [p["rss_kib"] for p in healthy_points],
        "rss_at_stall_ends_kib": [p["rss_kib"] for p in stall_end_points],
        "rss_peak_any_kib": max(x["rss_kib"] for x in samples),
        "rss_growth": round((peak - base) / base, 4) if base else None,
        "rss_shrink": round((low - base) / base, 4) if base else None,
        "fds": [p["fds"] for p in healthy_points], "threads": [p["threads"] for p in healthy_points],
    }
    reconciled = (s["violations_stored"] + s["violations_unstored"] == s["violations_published"]
                  and rows == s["violations_stored"] - s["history_pruned"])
    flat = base is not None and abs(verdict["rss_growth"]) <= args.rss_growth and abs(verdict["rss_shrink"]) <= args.rss_growth
    verdict["reconciled"] = reconciled
    verdict["flat"] = flat
    print(json.dumps(verdict, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps({"samples": samples, "healthy_points": healthy_points,
                                               "stall_end_points": stall_end_points, "verdict": verdict}, indent=2))
    return 0 if flat and reconciled else 1


if __name__ == "__main__":
    sys.exit(main())
