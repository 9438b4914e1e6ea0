"""CURVE with ModalwatchClient: `modalwatch send --curve-server-key --curve-key-file` gets
through to a daemon that allows its key, is refused where it is not allowed, and gets
through a forwarder whose frontend is encrypted."""
from __future__ import annotations

import subprocess
import signal

import zmq.auth

import e2e_support as support
import shard_support as shard
import streams
from streams import T0


def keygen(path):
    made = support.run_cli(["keygen", "--output", str(path)])
    assert made.returncode == 0, made.stderr
    return zmq.auth.load_certificate(str(path))


def small_stream(tmp_path):
    return support.write_stream(tmp_path / "small.ndjson", streams.quiet_session("C1", "com.example.curve", T0))


def test_send_with_curve_keys_reaches_a_daemon_that_allows_them(zctx, tmp_path):
    server_public, _ = keygen(tmp_path / "server.key")
    client_public, _ = keygen(tmp_path / "client.key")
    config = tmp_path / "modalwatchd.yaml"
    config.write_text(f"curve:\n  key_file: {tmp_path / 'server.key'}\n  allowed_clients: ['{client_public.decode()}']\n")
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(config)]).start()
    try:
        stream = small_stream(tmp_path)
        sent = shard.send([stream], [daemon.events], "--curve-server-key", server_public.decode(),
                          "--curve-key-file", str(tmp_path / "client.key"))
        assert sent["events_sent"] == sent["events"] > 0
        status = daemon.wait_status(lambda s: s["events_received"] >= sent["events"], what="the encrypted stream")
        assert status["curve_clients_accepted"] >= 1
        # Without the keys nothing subscribes for it (the handshake fails): exit 3, counted as refused.
        plain = support.run_cli(["send", str(stream), "--events", daemon.events, "--timeout", "1000"])
        assert plain.returncode == 3, plain.stderr.decode()
    finally:
        assert daemon.stop() == 0


def test_send_through_a_forwarder_with_an_encrypted_frontend(zctx, tmp_path):
    forward_public, _ = keygen(tmp_path / "forward.key")
    keygen(tmp_path / "client.key")
    frontend, backend = support.free_tcp_endpoint(), support.free_tcp_endpoint()
    err = open(tmp_path / "forward.err", "wb")
    process = subprocess.Popen([str(support.cli_path()), "forward", "--frontend", frontend, "--backend", backend,
                                "--curve-key-file", str(tmp_path / "forward.key"), "--stats-interval", "0"],
                               stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
    daemons = []
    try:
        assert support.poll_until(lambda: "forwarding" in (tmp_path / "forward.err").read_text(), 10)
        daemons = shard.start_shards(zctx, tmp_path, count=2, connect=backend)
        stream = small_stream(tmp_path)
        sent = shard.send([stream], [frontend], "--shard-count", "2", "--curve-server-key", forward_public.decode(),
                          "--curve-key-file", str(tmp_path / "client.key"))
        assert sent["events_sent"] == sent["events"]
        statuses = shard.wait_received(daemons, sent["events"])
        assert sum(s["events_received"] for s in statuses) == sent["events"]
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        err.close()
        shard.stop_all(daemons)
