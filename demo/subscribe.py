#!/usr/bin/env python3
"""Print modalwatchd's violations as they are published, one readable line each.

    python3 demo/subscribe.py [--publish tcp://127.0.0.1:7451] [--diag] [--ready-file PATH]

Subscribes to `violation/` (and `diag/` with --diag) on the daemon's PUB socket.
Once the connection is up and the subscription has had time to reach the
daemon, it writes `ready` to --ready-file (so a script can start sending).
SIGTERM or SIGINT: take what has already arrived, print a count, exit 0.
"""
from __future__ import annotations

import argparse
import json
import signal
import sys
import time

import zmq
from zmq.utils.monitor import recv_monitor_message

COLOURS = {"error": "31", "warning": "33", "info": "36"}


def line_for(topic: str, body: dict, colour: bool) -> str:
    if topic.startswith("diag/"):
        return f"diag     {body.get('reason', '?'):<22} {body.get('app') or '-':<20} {body.get('session') or '-':<12} {body.get('detail', '')}"
    severity = str(body.get("severity", "?"))
    label = f"{severity.upper():<8}"
    if colour and severity in COLOURS:
        label = f"\x1b[{COLOURS[severity]}m{label}\x1b[0m"
    subject = f" [{body['subject']}]" if body.get("subject") else ""
    return f"{label} {body.get('rule', '?'):<32} {body.get('app', '?'):<20} {body.get('session', '?'):<12} {body.get('message', '')}{subject}"


def connect(sock: zmq.Socket, endpoint: str, timeout: float) -> bool:
    """Connects `sock` to `endpoint`; True once the connection is up (socket monitor), within `timeout` s.

    The monitor is attached before the connect, so a handshake that completes at once is seen too.
    """
    monitor = sock.get_monitor_socket(zmq.EVENT_HANDSHAKE_SUCCEEDED)
    sock.connect(endpoint)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if monitor.poll(50) and recv_monitor_message(monitor)["event"] == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                return True
        return False
    finally:
        sock.disable_monitor()
        monitor.close(linger=0)


def main() -> int:
    parser = argparse.ArgumentParser(description="Print modalwatchd violations as they arrive.")
    parser.add_argument("--publish", default="tcp://127.0.0.1:7451", help="the daemon's publish endpoint")
    parser.add_argument("--diag", action="store_true", help="also print diagnostics (diag/)")
    parser.add_argument("--ready-file", help="write 'ready' here once subscribed")
    parser.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to wait for the daemon")
    args = parser.parse_args()

    stopping = False

    def stop(signum, frame):  # noqa: ARG001
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    context = zmq.Context()
    sock = context.socket(zmq.SUB)
    sock.linger = 0
    sock.rcvhwm = 0
    sock.setsockopt(zmq.SUBSCRIBE, b"violation/")
    if args.diag:
        sock.setsockopt(zmq.SUBSCRIBE, b"diag/")
    if not connect(sock, args.publish, args.connect_timeout):
        print(f"subscribe.py: no daemon at {args.publish} within {args.connect_timeout} s", file=sys.stderr)
        return 3
    time.sleep(0.2)  # the subscription travels to the daemon's PUB after the handshake
    if args.ready_file:
        with open(args.ready_file, "w") as ready:
            ready.write("ready\n")

    colour = sys.stdout.isatty()
    count = 0
    idle_since: float | None = None
    while True:
        if stopping:
            # Drain: whatever arrives within 300 ms of the last message, then stop.
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since > 0.3:
                break
        try:
            ready = sock.poll(50)
        except zmq.ZMQError as error:
            if error.errno == zmq.EINTR:
                continue
            raise
        if not ready:
            continue
        idle_since = None if not stopping else time.monotonic()
        frames = sock.recv_multipart()
        if len(frames) != 2:
            print(f"subscribe.py: a message of {len(frames)} frames, expected 2", file=sys.stderr)
            continue
        topic = frames[0].decode("utf-8", "replace")
        try:
            body = json.loads(frames[1])
        except ValueError:
            print(f"subscribe.py: {topic}: payload is not JSON", file=sys.stderr)
            continue
        if topic.startswith("violation/"):
            count += 1
        print(line_for(topic, body, colour), flush=True)
    print(f"subscribe.py: {count} violation(s) received", file=sys.stderr, flush=True)
    sock.close()
    context.term()
    return 0


if __name__ == "__main__":
    sys.exit(main())
