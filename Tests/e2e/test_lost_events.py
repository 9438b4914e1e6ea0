"""Every event a producer sent and ZeroMQ dropped while the daemon was stopped (SIGSTOP) is
counted by the daemon once a later event of its session arrives: a gap inside a session as
`events_lost`, and the events before the first one seen of a session whose start never
came as `events_missing_before_first`. A plain `PUB` producer (no counters of its own),
the daemon stopped while it sends, then every session's `session.end`: sent = received +
counted, exactly."""
from __future__ import annotations

import signal
import time

import zmq

import e2e_support as support

T0 = 1_732_290_000_000
SESSIONS = 20_000
EVENTS_PER_SESSION = 10  # session.start (seq 1) and nine user.action (seq 2..10); session.end is seq 11


class LossySender(support.EventSender):
    """A `PUB` with a small send queue: it drops silently when the daemon takes nothing."""

    def __init__(self, context: zmq.Context, endpoint: str) -> None:
        self.socket = context.socket(zmq.PUB)
        self.socket.sndhwm = 1000
        self.socket.linger = 0
        self.socket.connect(endpoint)


def settled(daemon: support.Daemon, key: str, quiet: float = 1.0, timeout: float = 60.0) -> dict:
    """The status once `key` has not moved for `quiet` seconds."""
    deadline = time.monotonic() + timeout
    last = daemon.status()
    since = time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = daemon.status()
        if now[key] != last[key]:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return now
    raise AssertionError(f"{key} still moving after {timeout} s")


def test_events_zeromq_dropped_while_the_daemon_was_stopped_are_all_counted(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path).start()
    sender = LossySender(zctx, daemon.events)
    try:
        sender.warm_up(daemon)
        base = settled(daemon, "events_received", quiet=0.5)
        daemon.send_signal(signal.SIGSTOP)
        try:
            sent = 0
            for n in range(SESSIONS):
                session = f"L{n}"
                sender.event({"v": 1, "type": "session.start", "session": session, "ts": T0 + n, "app": "com.example.lossy", "seq": 1})
                for seq in range(2, EVENTS_PER_SESSION + 1):
                    sender.event({"v": 1, "type": "user.action", "session": session, "ts": T0 + n + seq,
                                  "app": "com.example.lossy", "control": "button", "label": "Edit", "seq": seq})
                sent += EVENTS_PER_SESSION
            time.sleep(0.5)  # stopped a while after the last send: the stream ends while the daemon takes nothing
        finally:
            daemon.send_signal(signal.SIGCONT)
        settled(daemon, "events_received")
        # Every session's end, in batches the daemon keeps up with: none of these is lost.
        for first in range(0, SESSIONS, 500):
            sender.batch([{"v": 1, "type": "session.end", "session": f"L{n}", "ts": T0 + n + 100,
                          "app": "com.example.lossy", "seq": EVENTS_PER_SESSION + 1}
                          for n in range(first, first + 500)])
            sent += 500
            daemon.wait_status(lambda s, k=first + 500: s["sessions_ended"] - base["sessions_ended"] >= k, timeout=20,
                               what=f"{first + 500} session ends")
        status = settled(daemon, "events_received", quiet=0.5)
        received = status["events_received"] - base["events_received"]
        lost = status["events_lost"] - base["events_lost"]
        # .get: a daemon without the field counts none of them.
        missing = status.get("events_missing_before_first", 0) - base.get("events_missing_before_first", 0)
        assert received < sent, "ZeroMQ dropped some of what the stopped daemon could not take"
        assert received + lost + missing == sent, dict(sent=sent, received=received, lost=lost, missing=missing)
        assert missing > 0, "whole sessions were dropped, starts included"
        sender.close()
    finally:
        if daemon.alive:
            daemon.send_signal(signal.SIGCONT)
        assert daemon.stop() == 0
