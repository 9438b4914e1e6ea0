"""The publishing side's limits (RELIABILITY.md, "Every socket has limits"): a subscriber's
subscriptions, and any message it sends, are bounded where libzmq takes them, so that no peer of
the publish port can grow the daemon's memory; the other subscribers are served on time."""
from __future__ import annotations

import socket
import struct
import time
from pathlib import Path

import zmq

import e2e_support as support
import streams

APP = "com.example.mail"


def rss_kib(pid: int) -> int:
    """The process's resident set, KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_oversized_subscriptions_and_frames_do_not_grow_the_daemon(zctx, daemon, sender, subscriber):
    before = rss_kib(daemon.process.pid)
    # 10,000 subscriptions of 4 KiB each (40 MB): each is longer than any topic, refused at libzmq's
    # message limit, which drops that peer's connection.
    hostile = zctx.socket(zmq.SUB)
    hostile.setsockopt(zmq.LINGER, 0)
    hostile.connect(daemon.publish)
    for n in range(10_000):
        hostile.setsockopt(zmq.SUBSCRIBE, b"violation/" + str(n).encode() + b"/" + b"x" * 4096)
    # One peer speaking ZMTP by hand announces a 1 GiB frame and sends 8 MiB of it.
    host, port = daemon.publish.removeprefix("tcp://").rsplit(":", 1)
    raw = socket.create_connection((host, int(port)), timeout=5)
    greeting = b"\xff" + b"\x00" * 8 + b"\x7f" + b"\x03\x00" + b"NULL" + b"\x00" * 16 + b"\x00" + b"\x00" * 31
    raw.sendall(greeting)
    ready = b"\x05READY" + b"\x0bSocket-Type" + struct.pack(">I", 3) + b"SUB"
    raw.sendall(b"\x04" + bytes([len(ready)]) + ready)
    raw.sendall(b"\x02" + struct.pack(">Q", 1 << 30))
    chunk = b"\x01" + b"y" * (1 << 20)
    sent = 0
    try:
        for _ in range(8):
            raw.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass  # the daemon closed the connection: the limit at work
    # The daemon ends that connection (EOF or a reset), rather than reading on.
    raw.settimeout(5)
    closed = False
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if raw.recv(65536) == b"":
                closed = True
                break
        except (ConnectionResetError, BrokenPipeError):
            closed = True
            break
        except socket.timeout:
            break
    assert closed, f"the daemon kept reading a frame announced as 1 GiB ({sent} bytes sent)"
    grown = rss_kib(daemon.process.pid) - before
    # The other subscriber still gets what it asked for, promptly.
    started = time.monotonic()
    sender.events(streams.alert_frequency_session("B1", APP))
    got = subscriber.collect(lambda m: len(subscriber.violations(m)) >= 1, timeout=5)
    assert subscriber.violations(got), "a violation reaches the well-behaved subscriber"
    assert time.monotonic() - started < 2.0
    assert grown < 64 * 1024, f"RSS grew {grown} KiB"
    assert daemon.status()["ok"] is True
    raw.close()
    hostile.close()


def test_many_distinct_short_subscriptions_are_refused_past_the_bound_and_do_not_grow_the_daemon(zctx, daemon, sender, subscriber):
    """200,000 distinct subscriptions from one peer, each well within the message limit: past 1,024
    a connection (RELIABILITY.md, "Subscriptions") they are refused and counted, and the peer's
    connection is shut down, so libzmq's subscription trie stays small; the other subscriber is
    served on time."""
    pid = daemon.process.pid
    before = rss_kib(pid)
    hostile = zctx.socket(zmq.SUB)
    hostile.setsockopt(zmq.LINGER, 0)
    hostile.setsockopt(zmq.SNDHWM, 0)  # every subscription goes out (a SUB drops them past its HWM)
    hostile.connect(daemon.publish)
    for n in range(200_000):
        hostile.setsockopt(zmq.SUBSCRIBE, b"violation/%06d/" % n)
    # The daemon publishes meanwhile: libzmq takes subscriptions in whenever the socket is used.
    deadline = time.monotonic() + 8
    n = 0
    while time.monotonic() < deadline:
        sender.send(support.DIAG_PROBE)
        if n % 10 == 0:
            sender.events(streams.alert_frequency_session(f"H{n}", f"com.example.flood{n}"))
        n += 1
        time.sleep(0.02)
    grown = rss_kib(pid) - before
    status = daemon.status()
    print(f"RSS grew {grown} KiB; subscriptions_refused {status.get('subscriptions_refused')}")
    # libzmq's trie of 200,000 such subscriptions takes ~40 MiB; bounded, a few MiB at most.
    assert grown < 16 * 1024, f"RSS grew {grown} KiB"
    assert status.get("subscriptions_refused", 0) > 0, "subscriptions past the bound are counted"
    # The other subscriber still gets what it asked for, promptly.
    subscriber.collect(lambda m: False, timeout=0.5)
    subscriber.pending.clear()
    started = time.monotonic()
    sender.events(streams.alert_frequency_session("B1", APP))
    got = subscriber.collect(lambda m: len(subscriber.violations(m)) >= 1, timeout=5)
    assert subscriber.violations(got), "a violation reaches the well-behaved subscriber"
    assert time.monotonic() - started < 2.0
    assert daemon.status()["ok"] is True
    hostile.close()


def test_a_bare_tcp_connection_to_the_publish_or_control_port_is_closed_within_the_handshake_interval(daemon):
    """A connection that never speaks ZMTP holds a descriptor for at most the handshake interval
    (5 s), on the publish and control sockets as on the ingest socket."""
    for endpoint in (daemon.publish, daemon.control):
        host, port = endpoint.removeprefix("tcp://").rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=5) as bare:
            bare.settimeout(9)
            started = time.monotonic()
            try:
                while bare.recv(4096):
                    pass  # the daemon's greeting
            except ConnectionResetError:
                pass
            assert time.monotonic() - started < 8.5, endpoint
