"""CURVE encryption on the ingest and publish sockets: a pyzmq client with an
allowed key gets through, one with an unknown key is refused and counted, and
no secret key ever reaches the log."""
from __future__ import annotations

import json
import time

import zmq
import zmq.auth

import e2e_support as support

T0 = 1_732_290_000_000


def curve_client(ctx: zmq.Context, kind: int, server_public: bytes, keys: tuple[bytes, bytes]) -> zmq.Socket:
    socket = ctx.socket(kind)
    socket.curve_serverkey = server_public
    socket.curve_publickey, socket.curve_secretkey = keys
    socket.linger = 0
    return socket


def probe(n: int) -> bytes:
    return json.dumps({"v": 1, "type": "probe", "session": "probe", "ts": n}).encode()


def test_curve_allows_listed_clients_and_refuses_unknown_ones(zctx, tmp_path):
    key_file = tmp_path / "server.key"
    made = support.run_cli(["keygen", "--output", str(key_file)])
    assert made.returncode == 0, made.stderr
    server_public, server_secret = zmq.auth.load_certificate(str(key_file))
    assert made.stdout.decode().strip() == server_public.decode()
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    allowed = zmq.curve_keypair()
    stranger = zmq.curve_keypair()
    config = tmp_path / "modalwatchd.yaml"
    config.write_text(f"curve:\n  key_file: {key_file}\n  allowed_clients: ['{allowed[0].decode()}']\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        assert daemon.status()["curve"] is True
        # an allowed publisher: its probes are received
        good = curve_client(zctx, zmq.PUB, server_public, allowed)
        good.connect(daemon.events)
        deadline = time.monotonic() + 5
        n = 0
        while daemon.status()["events_unknown_type"] == 0 and time.monotonic() < deadline:
            good.send(probe(n))
            n += 1
            time.sleep(0.02)
        assert daemon.status()["events_unknown_type"] > 0, "the allowed client's events never arrived"
        accepted = daemon.status()["curve_clients_accepted"]
        assert accepted >= 1

        # an unknown publisher: refused, counted, nothing of it arrives
        before = daemon.status()["events_received"]
        bad = curve_client(zctx, zmq.PUB, server_public, stranger)
        bad.connect(daemon.events)
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            bad.send(probe(0))
            time.sleep(0.02)
        status = daemon.status()
        assert status["curve_clients_refused"] >= 1
        assert status["events_received"] == before
        # a plain (unencrypted) publisher gets nowhere either
        plain = zctx.socket(zmq.PUB)
        plain.linger = 0
        plain.connect(daemon.events)
        for _ in range(25):
            plain.send(probe(0))
            time.sleep(0.02)
        assert daemon.status()["events_received"] == before

        # subscribers: an allowed one receives violations, an unknown one does not
        refused_before = daemon.status()["curve_clients_refused"]
        good_sub = curve_client(zctx, zmq.SUB, server_public, allowed)
        good_sub.setsockopt(zmq.SUBSCRIBE, b"violation/")
        good_sub.connect(daemon.publish)
        bad_sub = curve_client(zctx, zmq.SUB, server_public, stranger)
        bad_sub.setsockopt(zmq.SUBSCRIBE, b"violation/")
        bad_sub.connect(daemon.publish)
        # Both connected: the allowed one's subscription has reached the daemon, the unknown one was refused.
        support.await_subscriptions([good_sub], good)
        daemon.wait_status(lambda s: s["curve_clients_refused"] > refused_before, what="the unknown subscriber refused")
        alert_events = [{"v": 1, "type": "session.start", "session": "Z", "ts": T0, "app": "com.example.z"}]
        got = None
        for i in range(20):
            alert_events.append({"v": 1, "type": "alert.presented", "session": "Z", "ts": T0 + 1000 * i, "id": f"z{i}",
                                 "title": "Error", "buttons": [{"title": "OK"}]})
        for event in alert_events:
            good.send(json.dumps(event).encode())
        if good_sub.poll(5000):
            got = good_sub.recv_multipart()
        assert got is not None and got[0].startswith(b"violation/com.example.z/")
        assert bad_sub.poll(500) == 0, "an unknown subscriber received a violation"
        assert daemon.status()["curve_clients_refused"] > refused_before
        for s in (good, bad, plain, good_sub, bad_sub):
            s.close()
    finally:
        assert daemon.stop() == 0
    log = daemon.log()
    assert server_secret.decode() not in log and stranger[1].decode() not in log and allowed[1].decode() not in log
