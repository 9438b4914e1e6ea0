#!/usr/bin/env python3
"""The daemon's CPU per `status` request (its figures: docs/archive/performance-history.md, "`status` cost").

Starts a `modalwatchd` on private ipc:// endpoints with a state directory, feeds it the
demo stream (its sessions left open), then sends N `status` requests one after another
on one REQ socket and reads the daemon's CPU time (utime + stime, /proc/PID/stat) before
and after: the daemon's CPU per request, sockets and all, and the round trip seen by the
client. Three rounds; prints each and the median.

    python3 bench/status_cost.py                        # .build/release/modalwatchd
    python3 bench/status_cost.py --bin .build/debug --requests 2000
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import zmq

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=str(ROOT / ".build/release"), help="folder holding modalwatchd")
    parser.add_argument("--requests", type=int, default=5000, help="status requests per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="mw-status-cost-")
    endpoints = {name: f"ipc://{folder}/{name}" for name in ("events", "publish", "control")}
    daemon = subprocess.Popen(
        [f"{args.bin}/modalwatchd", "--events", endpoints["events"], "--publish", endpoints["publish"],
         "--control", endpoints["control"], "--state-dir", f"{folder}/state"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = zmq.Context()
    request = context.socket(zmq.REQ)
    request.setsockopt(zmq.LINGER, 0)
    request.setsockopt(zmq.RCVTIMEO, 5000)
    request.connect(endpoints["control"])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                request.send(b'{"cmd":"status"}')
                request.recv()
                break
            except zmq.Again:
                if time.monotonic() > deadline:
                    raise SystemExit("modalwatchd did not answer status within 10 s")
                request.close()
                request = context.socket(zmq.REQ)
                request.setsockopt(zmq.LINGER, 0)
                request.setsockopt(zmq.RCVTIMEO, 5000)
                request.connect(endpoints["control"])
        publisher = context.socket(zmq.PUB)
        publisher.setsockopt(zmq.LINGER, 2000)
        publisher.connect(endpoints["events"])
        time.sleep(0.3)
        for line in (ROOT / "demo/stream.ndjson").read_bytes().splitlines():
            if line.strip() and b'"session.end"' not in line:
                publisher.send(line)
        publisher.close()
        time.sleep(0.5)
        per_request = []
        for round_ in range(args.rounds):
            before, start = cpu_seconds(daemon.pid), time.perf_counter()
            for _ in range(args.requests):
                request.send(b'{"cmd":"status"}')
                request.recv()
            wall, cpu = time.perf_counter() - start, cpu_seconds(daemon.pid) - before
            per_request.append(cpu / args.requests * 1000)
            print(f"round {round_ + 1}: {args.requests} status requests, daemon CPU {per_request[-1]:.3f} ms each, "
                  f"round trip {wall / args.requests * 1000:.3f} ms each")
        print(f"median: daemon CPU {statistics.median(per_request):.3f} ms per status request")
    finally:
        request.close()
        context.term()
        daemon.terminate()
        daemon.wait(timeout=10)


if __name__ == "__main__":
    main()
