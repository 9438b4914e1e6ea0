"""Descriptors: a daemon with few of them, under a flood of bare TCP connections to its
ingest port, keeps answering on its control socket and still writes its last session checkpoint
on SIGTERM (opened at start), so the sessions come back on restart."""
from __future__ import annotations

import json
import resource
import signal
import socket
import subprocess
import time

import zmq

import e2e_support as support
import streams

T0 = 1_732_290_000_000
SESSIONS = 50
BARE_CONNECTIONS = 1100
HANDSHAKE_S = 5.0  # ConnectionGuard.handshakeIntervalMs


def few_descriptors() -> None:
    """In the child, before exec: 128 descriptors, soft and hard (the daemon cannot raise it)."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))


def open_bare_connections(endpoint: str, count: int) -> list[socket.socket]:
    """`count` TCP connections to `endpoint` that never say a word of ZMTP."""
    host, port = endpoint.removeprefix("tcp://").rsplit(":", 1)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 1024), hard))
    opened = []
    deadline = time.monotonic() + 30
    for _ in range(count):
        if time.monotonic() > deadline:
            break
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(0.2)
        try:
            sock.connect((host, int(port)))
        except OSError:
            sock.close()
            continue
        opened.append(sock)
    return opened


def test_control_answers_and_the_snapshot_is_written_with_128_descriptors_under_a_connection_flood(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path, preexec_fn=few_descriptors).start()
    bare: list[socket.socket] = []
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        sender.batch([streams.start(f"S{n}", "com.example.fd", T0 + n) for n in range(SESSIONS)])
        daemon.wait_status(lambda s: s["sessions_live"] == SESSIONS, timeout=10, what="sessions started")
        sender.close()

        bare = open_bare_connections(daemon.events, BARE_CONNECTIONS)
        assert len(bare) >= 200, f"only {len(bare)} connections opened"
        # Control answers while the connections are held open.
        answered = 0
        for _ in range(10):
            try:
                status = daemon.request({"cmd": "status"}, timeout=2.0)
                answered += status.get("ok") is True
            except TimeoutError:
                pass
            time.sleep(0.2)
        assert answered >= 8, f"control answered {answered} of 10 status requests under the flood"
        assert status["ingest_connections_refused"] > 0
        assert status["ingest_connections"] <= status["ingest_connections_max"] < 128
        assert daemon.stop() == 0
        assert "could not write the last session checkpoint" not in daemon.log()
    finally:
        for sock in bare:
            sock.close()
        if daemon.alive:
            daemon.stop()
    assert (tmp_path / "state" / "sessions.checkpoint").is_file()
    restarted = support.Daemon(zctx, tmp_path).start()
    try:
        assert restarted.status()["sessions_live"] == SESSIONS
    finally:
        assert restarted.stop() == 0


def test_a_connection_flood_on_the_publish_or_control_port_leaves_control_answering(zctx, tmp_path):
    """The publish and control sockets are guarded as the ingest socket is: with 128 descriptors,
    bare TCP connections to either are shut down past their limit (counted by socket), and the
    control socket answers again once the connections it accepted have had their handshake
    interval."""
    daemon = support.Daemon(zctx, tmp_path, preexec_fn=few_descriptors).start()
    bare: list[socket.socket] = []
    try:
        for target in (daemon.publish, daemon.control):
            bare += open_bare_connections(target, 190)
        assert len(bare) >= 200, f"only {len(bare)} connections opened"
        flooded = time.monotonic()
        # The bare connections the control socket accepted hold its slots until libzmq ends their
        # unfinished handshake: a request meanwhile is refused (and its REQ loses it). Past that,
        # with the flood's sockets still open, every request is answered.
        time.sleep(max(0.0, HANDSHAKE_S + 1.0 - (time.monotonic() - flooded)))
        answered = 0
        for _ in range(10):
            try:
                status = daemon.request({"cmd": "status"}, timeout=2.0)
                answered += status.get("ok") is True
            except TimeoutError:
                pass
            time.sleep(0.2)
        assert answered == 10, f"control answered {answered} of 10 status requests under the flood"
        refused = status["connections_refused_by_socket"]
        assert refused.get("publish", 0) > 0 and refused.get("control", 0) > 0, refused
    finally:
        for sock in bare:
            sock.close()
        assert daemon.stop() == 0


def test_a_connection_flood_on_the_forwarders_frontend_leaves_it_forwarding(zctx, tmp_path):
    """`modalwatch forward` with 128 descriptors: bare TCP connections to its frontend are shut down
    past the frontend's limit (counted), and once libzmq has ended the held ones' handshake, a
    producer's events come out of the backend again."""
    frontend, backend = support.free_tcp_endpoint(), support.free_tcp_endpoint()
    err = open(tmp_path / "forward.err", "wb")
    forward = subprocess.Popen([str(support.cli_path()), "forward", "--frontend", frontend, "--backend", backend,
                                "--stats-interval", "0", "--json"],
                               stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, preexec_fn=few_descriptors)
    bare: list[socket.socket] = []
    sub = zctx.socket(zmq.SUB)
    sub.linger = 0
    pub = zctx.socket(zmq.PUB)
    pub.linger = 0
    try:
        assert support.poll_until(lambda: b"forwarding" in (tmp_path / "forward.err").read_bytes(), 10), \
            (tmp_path / "forward.err").read_text()
        sub.setsockopt(zmq.SUBSCRIBE, b"")
        sub.connect(backend)
        bare = open_bare_connections(frontend, 400)
        assert len(bare) >= 200, f"only {len(bare)} connections opened"
        assert forward.poll() is None, (tmp_path / "forward.err").read_text()
        # Past the handshake interval of the held connections: what the test shows happens after it.
        time.sleep(HANDSHAKE_S + 1.0)
        pub.connect(frontend)

        def through() -> bool:
            pub.send(b"after the flood")
            return sub.poll(200) != 0 and sub.recv() == b"after the flood"

        assert support.poll_until(through, 15, interval=0.1), "nothing came through the forwarder after the flood"
    finally:
        for sock in bare:
            sock.close()
        sub.close()
        pub.close()
        forward.send_signal(signal.SIGTERM)
        out, _ = forward.communicate(timeout=20)
        err.close()
    assert forward.returncode == 0, (tmp_path / "forward.err").read_text()
    summary = json.loads(out.decode().strip().splitlines()[-1])
    assert summary["frontend_connections_refused"] > 0, summary
