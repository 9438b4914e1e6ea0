"""The forwarder's subscription bounds (RELIABILITY.md, "Subscriptions"): a peer of the backend
that sends many distinct short subscriptions, each within the message limit, is refused past the
bound and its connection shut down, so that neither the forwarder's memory nor what it sends
upstream grows with them; a well-behaved daemon on the backend still gets the producers' events."""
from __future__ import annotations

import time
from pathlib import Path

import zmq

import e2e_support as support
import shard_support as shard


def rss_kib(pid: int) -> int:
    """The process's resident set, KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_many_distinct_short_subscriptions_to_the_backend_are_refused_and_do_not_grow_the_forwarder(zctx, tmp_path):
    """200,000 distinct subscriptions from one peer of the backend: past 1,024 a connection they are
    refused (`subscriptions_refused`) and the peer's connection is shut down, so libzmq's
    subscription trie stays small; a daemon-like SUB on the backend is served on time."""
    forward = shard.Forwarder(tmp_path)
    producer = zctx.socket(zmq.PUB)
    producer.setsockopt(zmq.LINGER, 0)
    daemon = zctx.socket(zmq.SUB)
    daemon.setsockopt(zmq.LINGER, 0)
    hostile = zctx.socket(zmq.SUB)
    hostile.setsockopt(zmq.LINGER, 0)
    try:
        producer.connect(forward.frontend)
        daemon.setsockopt(zmq.SUBSCRIBE, b"ui/07/")
        daemon.connect(forward.backend)

        def through(payload: bytes) -> bool:
            producer.send_multipart([b"ui/07/", payload])
            return daemon.poll(100) != 0 and daemon.recv_multipart() == [b"ui/07/", payload]

        assert support.poll_until(lambda: through(b"before"), 10, interval=0.05), "nothing came through the forwarder"
        pid = forward.process.pid
        before = rss_kib(pid)
        hostile.setsockopt(zmq.SNDHWM, 0)  # every subscription goes out (a SUB drops them past its HWM)
        hostile.connect(forward.backend)
        for n in range(200_000):
            hostile.setsockopt(zmq.SUBSCRIBE, b"ui/x%06d/" % n)
        # Producers publish meanwhile; the hostile peer reconnects and resends its subscriptions.
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline:
            producer.send_multipart([b"ui/00/", b"elsewhere"])
            time.sleep(0.02)
        grown = rss_kib(pid) - before
        print(f"forwarder RSS grew {grown} KiB")
        # libzmq's trie of 200,000 such subscriptions takes ~40 MiB; bounded, a few MiB at most.
        assert grown < 16 * 1024, f"RSS grew {grown} KiB"
        # The well-behaved daemon still gets what it subscribed to, promptly.
        while daemon.poll(0):
            daemon.recv_multipart()
        started = time.monotonic()
        assert support.poll_until(lambda: through(b"after"), 5, interval=0.05), "nothing came through after the flood"
        assert time.monotonic() - started < 2.0
        assert forward.process.poll() is None, (tmp_path / "forward.err").read_text()
    finally:
        hostile.close()
        daemon.close()
        producer.close()
        if forward.process.poll() is None:
            summary = forward.stop()
        else:
            summary = {}
        forward.kill()
    print(f"summary {summary}")
    assert summary.get("subscriptions_refused", 0) > 0, summary
    assert summary["messages_forwarded"] >= 2, summary
    # Only what the guard kept went upstream (and its end): not the 200,000.
    assert summary["subscriptions_forwarded"] < 50_000, summary
    # The periodic line names them too.
    assert "subscriptions refused" in (tmp_path / "forward.err").read_text()
