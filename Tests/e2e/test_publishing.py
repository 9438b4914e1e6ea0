"""The publish socket under a subscriber that does not keep up (violations.md: "the daemon counts what it drops")."""
from __future__ import annotations

import time

import pytest
import zmq

import e2e_support as support

APPS = 9000  # distinct apps, so the 10-a-second-per-app limit lets most diagnostics out
EVENTS = 150_000  # over the daemon's PUB high-water mark (100,000) for one stalled subscriber


def test_a_slow_subscriber_overflowing_is_counted(daemon, sender, zctx):
    slow = zctx.socket(zmq.SUB)
    slow.linger = 0
    slow.rcvhwm = 10
    slow.setsockopt(zmq.RCVBUF, 4096)
    slow.setsockopt(zmq.SUBSCRIBE, b"diag/")
    slow.connect(daemon.publish)
    try:
        support.await_subscriptions([slow], sender)
        base = daemon.status()
        for start in range(0, EVENTS, 1000):
            sender.send(b"\n".join(
                b'{"v":1,"app":"app%d","type":"probe","session":"s","ts":-1}' % (n % APPS) for n in range(start, start + 1000)))
        deadline = time.monotonic() + 30
        while True:
            # A long timeout: the daemon answers control requests between large drains only.
            status = daemon.request({"cmd": "status"}, timeout=20)
            if support.delta(status, base, "events_received") >= EVENTS or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert support.delta(status, base, "events_received") == EVENTS
        # Every diagnostic found is published once the publishing thread has taken the last batch:
        # the counts hold between two looks (a status read as the last events are counted received
        # may come before that thread published their diagnostics).
        previous = None
        while time.monotonic() < deadline + 10:
            status = daemon.request({"cmd": "status"}, timeout=20)
            counts = (status["diagnostics_published"], status["subscriber_overflows"], status["diagnostics_suppressed"])
            if counts == previous:
                break
            previous = counts
            time.sleep(0.3)
        received = 0
        while slow.poll(300):
            slow.recv_multipart()
            received += 1
        published = support.delta(status, base, "diagnostics_published")
        overflows = support.delta(status, base, "subscriber_overflows")
        assert received < published, "the premise: the stalled subscriber missed some"
        assert overflows >= 1, (published, received, overflows)
        assert support.delta(status, base, "messages_dropped") == 0, "subscribers that keep up got everything"

    finally:
        slow.close()


def test_a_subscriber_that_never_reads_slows_neither_ingest_nor_other_subscribers(daemon, sender, zctx):
    stalled = zctx.socket(zmq.SUB)
    stalled.linger = 0
    stalled.rcvhwm = 10
    stalled.setsockopt(zmq.RCVBUF, 4096)
    stalled.setsockopt(zmq.SUBSCRIBE, b"diag/")
    stalled.connect(daemon.publish)
    keeping_up = zctx.socket(zmq.SUB)
    keeping_up.linger = 0
    keeping_up.rcvhwm = 0
    keeping_up.setsockopt(zmq.SUBSCRIBE, b"diag/")
    keeping_up.connect(daemon.publish)
    try:
        support.await_subscriptions([stalled, keeping_up], sender)
        base = daemon.status()
        total = 60_000
        started = time.monotonic()
        for start in range(0, total, 1000):
            sender.send(b"\n".join(
                b'{"v":1,"app":"app%d","type":"probe","session":"s","ts":-1}' % (n % APPS) for n in range(start, start + 1000)))
        received = 0
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            while keeping_up.poll(50):
                keeping_up.recv_multipart()
                received += 1
            status = daemon.request({"cmd": "status"}, timeout=20)
            if support.delta(status, base, "events_received") >= total and not keeping_up.poll(300):
                break
        elapsed = time.monotonic() - started
        # The publishing thread counts what it sent; the ingest loop publishes that count each tick,
        # so the count of a status read as the last events arrive may lag what was received.
        status = daemon.wait_status(
            lambda s: support.delta(s, base, "diagnostics_published") >= received, timeout=5,
            what=f"diagnostics_published to reach the {received} received")
        published = support.delta(status, base, "diagnostics_published")
        assert support.delta(status, base, "events_received") == total, "ingest lost events"
        assert received == published, f"the subscriber that keeps up missed {published - received} of {published}"
        assert elapsed < 25, elapsed
    finally:
        stalled.close()
        keeping_up.close()
