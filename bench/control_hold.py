#!/usr/bin/env python3
"""How long control requests hold the ingest thread with many live sessions (the target: no
control request holds it for more than 1 ms). A manual measurement for the release build, not a CI test
(`Tests/e2e/test_control_under_load.py` is the CI one, and checks that nothing is lost).

A real `modalwatchd` (MODALWATCH_BIN_DIR, default .build/release) with LIVE live sessions (one
`session.start` each, sent in batches of 1,000) and a journal full of alerts; then, while a steady
stream of RATE sessions a second flows (10 events each, four alerts, one `alert-frequency` violation),
a client fires over and over every request the ingest thread works on at its largest: `status`,
`sessions` with the largest limit in each order (the first page: every page walks every live session),
`session` of a session with 16,384 events in the journal, `rules`, `reload`. Prints `status`'s
`control_hold_*` (each request's longest turn on the ingest thread, wall clock and CPU) and, from the
daemon's debug log, the longest step between two looks at the clock.

    python3 bench/control_hold.py --live 100000 --seconds 10
    python3 bench/control_hold.py --live 999000 --seconds 20
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

import zmq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
os.environ.setdefault("MODALWATCH_BIN_DIR", str(ROOT / ".build" / "release"))

import e2e_support as support  # noqa: E402
import streams  # noqa: E402
from streams import T0  # noqa: E402

APP = "com.example.mail"
SORTS = ["recent", "alerts", "depth", "violations", "events"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--live", type=int, default=100_000,
                        help="live sessions before the stream (the daemon keeps at most 1,000,000: --live 999000 for the most)")
    parser.add_argument("--rate", type=int, default=3_000, help="stream sessions a second (10 events each)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the stream and the requests last")
    args = parser.parse_args()

    context = zmq.Context()
    workdir = Path(tempfile.mkdtemp(prefix="mw-control-hold-"))
    daemon = support.Daemon(context, workdir, extra_args=["--log-level", "debug"], ipc=True).start(ready_timeout=30)
    try:
        sender = support.EventSender(context, daemon.events)
        sender.warm_up(daemon)
        loaded = time.monotonic()
        for first in range(0, args.live, 1_000):
            sender.batch(streams.start(f"Q{n}", APP, T0 + n) for n in range(first, min(first + 1_000, args.live)))
        # BIG: a live session with a journal's worth of events (16,384 actions), for `session`.
        big = [streams.start("BIG", APP, T0)] + [streams.action("BIG", T0 + 1 + n) for n in range(16_384)]
        for first in range(0, len(big), 1_000):
            sender.batch(big[first:first + 1_000])
        daemon.wait_status(lambda s: s["sessions_live"] >= args.live + 1, timeout=600, what="the live sessions")
        print(f"{args.live:,} live sessions loaded in {time.monotonic() - loaded:.1f} s", flush=True)
        sender.close()
        before = daemon.status()

        sessions = int(args.rate * args.seconds)
        per_session = len(streams.alert_frequency_session("x", APP, end_session=True))
        payloads = [support.ndjson(streams.alert_frequency_session(f"L{n}", APP, T0 + 1_000_000 + n, end_session=True))
                    for n in range(sessions)]

        def stream() -> None:
            pub = support.EventSender(context, daemon.events)
            time.sleep(0.3)
            started = time.monotonic()
            for n, payload in enumerate(payloads):
                pub.send(payload)
                if n % 20 == 19:
                    time.sleep(max(0.0, started + (n + 1) / args.rate - time.monotonic()))
            pub.close()

        streamer = threading.Thread(target=stream)
        streamer.start()
        requests = [{"cmd": "status"}]
        requests += [{"cmd": "sessions", "sort": sort, "limit": 1_000_000} for sort in SORTS]
        requests += [{"cmd": "session", "id": "BIG", "events": 16_384, "violations": 10_000}, {"cmd": "rules"}, {"cmd": "reload"}]
        answered: dict[str, int] = {}
        slowest: dict[str, float] = {}
        started = time.monotonic()
        while streamer.is_alive():
            for request in requests:
                name = request["cmd"] + ("/" + request["sort"] if "sort" in request else "")
                asked = time.monotonic()
                reply = daemon.request(request, timeout=120)
                assert reply.get("ok") is True, (request, reply)
                slowest[name] = max(slowest.get(name, 0.0), time.monotonic() - asked)
                answered[name] = answered.get(name, 0) + 1
        streamer.join()
        elapsed = time.monotonic() - started
        after = daemon.wait_status(
            lambda s: s["events_received"] - before["events_received"] >= sessions * per_session, timeout=60, what="the stream")
        faults = after
        load = os.getloadavg()
        steps = [int(m) for m in re.findall(r"longest_step_us=(\d+)", daemon.log())]
        turns = [int(m) for m in re.findall(r"\bturns=(\d+)", daemon.log())]
        result = {
            "live": args.live,
            "stream_events": sessions * per_session,
            "events_received": after["events_received"] - before["events_received"],
            "events_per_second": round(sessions * per_session / elapsed),
            "requests_answered": answered,
            "slowest_reply_s": {k: round(v, 3) for k, v in slowest.items()},
            "control_hold_max_us": faults["control_hold_max_us"],
            "control_hold_max_request": faults["control_hold_max_request"],
            "control_hold_us_by_request": faults["control_hold_us_by_request"],
            "control_hold_cpu_max_us": faults["control_hold_cpu_max_us"],
            "control_hold_cpu_us_by_request": faults["control_hold_cpu_us_by_request"],
            "longest_step_us": max(steps, default=None),
            "turns_per_job_max": max(turns, default=None),
            "load_average": [round(x, 2) for x in load],
        }
        print(json.dumps(result, indent=1))
        lost = result["stream_events"] - result["events_received"]
        return 0 if lost == 0 else 1
    finally:
        daemon.stop(timeout=60)
        if os.environ.get("MODALWATCH_HOLD_LOG"):
            Path(os.environ["MODALWATCH_HOLD_LOG"]).write_text(daemon.log())
        context.destroy(linger=0)


if __name__ == "__main__":
    sys.exit(main())
