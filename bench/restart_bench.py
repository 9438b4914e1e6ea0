#!/usr/bin/env python3
"""Restart cost at many live sessions: stop time, READY time after, snapshot bytes a session.

Starts a real modalwatchd with max_sessions = --sessions, fills it with that many live
sessions (NDJSON batches of session.start and a user.action each: no violations, so the
history store does not bound the fill), then sends SIGTERM and times the exit (the binary snapshot is written on the way
out); starts a second daemon on the same state directory and times spawn -> READY=1 (sd_notify
over a private NOTIFY_SOCKET, sent after the snapshot is restored), checks sessions_live, and
prints one line of figures per run plus a verdict against the targets (docs/PERFORMANCE.md: stop < 5 s,
READY < 5 s, <= 150 bytes a session).

    python3 bench/restart_bench.py --sessions 1000000

Uses .build/release/modalwatchd when it exists, else .build/debug (MODALWATCH_BIN_DIR overrides).
Exit status 0 all targets met, 1 one missed, 2 the daemon failed.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zmq

ROOT = Path(__file__).resolve().parent.parent
T0 = 1_732_290_000_000


def bin_dir() -> Path:
    if os.environ.get("MODALWATCH_BIN_DIR"):
        return Path(os.environ["MODALWATCH_BIN_DIR"])
    release = ROOT / ".build" / "release"
    return release if (release / "modalwatchd").exists() else ROOT / ".build" / "debug"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    def __init__(self, ctx: zmq.Context, folder: Path, sessions: int) -> None:
        self.ctx, self.folder = ctx, folder
        config = folder / "modalwatchd.yaml"
        config.write_text(f"max_sessions: {sessions}\n")
        self.events, self.publish, self.control = (f"tcp://127.0.0.1:{free_port()}" for _ in range(3))
        notify = folder / f"notify-{time.monotonic_ns()}"
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.listener.bind(str(notify))
        self.log = open(folder / "modalwatchd.log", "ab")
        self.spawned = time.monotonic()
        self.process = subprocess.Popen(
            [str(bin_dir() / "modalwatchd"), "--events", self.events, "--publish", self.publish, "--control", self.control,
             "--state-dir", str(folder / "state"), "--config", str(config)],
            env={**os.environ, "NOTIFY_SOCKET": str(notify)}, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float) -> float:
        """Seconds from spawn to READY=1."""
        self.listener.settimeout(timeout)
        while True:
            message = self.listener.recv(4096).decode()
            if "READY=1" in message:
                return time.monotonic() - self.spawned

    def status(self, attempts: int = 60) -> dict:
        """The status reply; a daemon busy ingesting may answer late, so each try waits 10 s."""
        for _ in range(attempts):
            sock = self.ctx.socket(zmq.REQ)
            sock.setsockopt(zmq.LINGER, 0)
            sock.setsockopt(zmq.RCVTIMEO, 10000)
            sock.connect(self.control)
            sock.send(json.dumps({"cmd": "status"}).encode())
            try:
                return json.loads(sock.recv())
            except zmq.Again:
                continue
            finally:
                sock.close()
        raise TimeoutError("no status reply")

    def stop(self, timeout: float = 120) -> tuple[float, int]:
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=timeout)
        self.listener.close()
        return time.monotonic() - began, code


def fill(ctx: zmq.Context, daemon: Daemon, sessions: int, batch: int) -> float:
    push = ctx.socket(zmq.PUB)
    push.setsockopt(zmq.SNDHWM, 0)
    push.setsockopt(zmq.LINGER, 5000)
    push.connect(daemon.events)
    time.sleep(0.5)
    began = time.monotonic()
    for first in range(0, sessions, batch):
        lines = []
        for n in range(first, min(first + batch, sessions)):
            sid = f"{n:08x}-5b1d-4c3e-8a6f-0d2b4e6a8c10"
            lines.append(json.dumps({"v": 1, "type": "session.start", "session": sid, "ts": T0 + n,
                                     "app": f"com.example.app{n % 16}", "device": "phone"}, separators=(",", ":")))
            lines.append(json.dumps({"v": 1, "type": "user.action", "session": sid, "ts": T0 + n + 1, "control": "button",
                                     "label": "Edit"}, separators=(",", ":")))
        push.send("\n".join(lines).encode())
    deadline = time.monotonic() + 3600
    while time.monotonic() < deadline:
        status = daemon.status()
        if status.get("sessions_live", 0) >= sessions and status.get("events_judged", 0) >= 2 * sessions:
            break
        time.sleep(0.5)
    push.close()
    return time.monotonic() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    ctx = zmq.Context()
    folder = Path(tempfile.mkdtemp(prefix="mw-restart-"))
    print(f"binaries: {bin_dir()}  sessions: {args.sessions}  folder: {folder}  loadavg: {os.getloadavg()[0]:.2f}", flush=True)
    first = Daemon(ctx, folder, args.sessions)
    first.wait_ready(60)
    filled = fill(ctx, first, args.sessions, args.batch)
    live = first.status()["sessions_live"]
    print(f"filled {live} live sessions in {filled:.1f} s", flush=True)
    stop_s, code = first.stop()
    if code != 0:
        print(f"first daemon exited {code}; see {folder}/modalwatchd.log")
        return 2
    snapshot = folder / "state" / "sessions.snapshot"
    size = snapshot.stat().st_size
    second = Daemon(ctx, folder, args.sessions)
    ready_s = second.wait_ready(600)
    restored = second.status()["sessions_live"]
    stop2_s, code2 = second.stop()
    per = size / max(1, live)
    print(f"stop {stop_s:.2f} s   snapshot {size} bytes = {per:.1f} bytes/session   READY after restart {ready_s:.2f} s   "
          f"restored {restored}/{live}   second stop {stop2_s:.2f} s   loadavg {os.getloadavg()[0]:.2f}")
    verdict = [("stop < 5 s", stop_s < 5), ("READY < 5 s", ready_s < 5), ("<= 150 bytes/session", per <= 150),
               ("all restored", restored == live)]
    for name, met in verdict:
        print(f"  {name}: {'met' if met else 'NOT met'}")
    return 0 if all(met for _, met in verdict) and code2 == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
