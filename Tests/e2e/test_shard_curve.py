"""CURVE with ModalwatchClient: `modalwatch send --curve-server-key --curve-key-file` gets
through to a daemon that allows its key, is refused where it is not allowed, and gets
through a forwarder encrypted on both sides."""
from __future__ import annotations

import subprocess
import signal

import zmq
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
        sent = shard.send([stream], [daemon.events], f"--curve-server-key={server_public.decode()}",
                          "--curve-key-file", str(tmp_path / "client.key"))
        assert sent["events_sent"] == sent["events"] > 0
        status = daemon.wait_status(lambda s: s["events_received"] >= sent["events"], what="the encrypted stream")
        assert status["curve_clients_accepted"] >= 1
        # Without the keys nothing subscribes for it (the handshake fails): exit 3, counted as refused.
        plain = support.run_cli(["send", str(stream), "--events", daemon.events, "--timeout", "1000"])
        assert plain.returncode == 3, plain.stderr.decode()
    finally:
        assert daemon.stop() == 0


def test_send_through_a_forwarder_encrypted_on_both_sides(zctx, tmp_path):
    """Producers → forwarder (CURVE server, allow-list) → daemons (CURVE servers sharing a key
    pair, allowing the forwarder's key): the events get through; a plain SUB on the backend
    gets none of them."""
    forward_public, _ = keygen(tmp_path / "forward.key")
    client_public, _ = keygen(tmp_path / "client.key")
    daemon_public, _ = keygen(tmp_path / "daemon.key")
    (tmp_path / "clients").write_text(client_public.decode() + "\n")
    config = tmp_path / "modalwatchd.yaml"
    config.write_text(f"curve:\n  key_file: {tmp_path / 'daemon.key'}\n  allowed_clients: ['{forward_public.decode()}']\n  publish: false\n")
    frontend, backend = support.free_tcp_endpoint(), support.free_tcp_endpoint()
    err = open(tmp_path / "forward.err", "wb")
    process = subprocess.Popen([str(support.cli_path()), "forward", "--frontend", frontend, "--backend", backend,
                                "--curve-key-file", str(tmp_path / "forward.key"), "--allowed-clients", str(tmp_path / "clients"),
                                f"--backend-server-key={daemon_public.decode()}", "--stats-interval", "0"],
                               stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL)
    daemons = []
    eavesdropper = zctx.socket(zmq.SUB)
    eavesdropper.linger = 0
    try:
        assert support.poll_until(lambda: "forwarding" in (tmp_path / "forward.err").read_text(), 10), (tmp_path / "forward.err").read_text()
        eavesdropper.subscribe(b"")
        eavesdropper.connect(backend)
        for index in range(2):
            folder = tmp_path / f"shard{index}"
            folder.mkdir()
            daemons.append(support.Daemon(zctx, folder, ["--config", str(config), "--shard", f"{index}/2",
                                                         "--events-connect", backend]).start())
        stream = small_stream(tmp_path)
        sent = shard.send([stream], [frontend], "--shard-count", "2", f"--curve-server-key={forward_public.decode()}",
                          "--curve-key-file", str(tmp_path / "client.key"))
        assert sent["events_sent"] == sent["events"]
        statuses = shard.wait_received(daemons, sent["events"])
        assert sum(s["events_received"] for s in statuses) == sent["events"]
        assert sum(s["curve_clients_accepted"] for s in statuses) >= 2
        assert not eavesdropper.poll(500), "a plain SUB on the backend read the events"
    finally:
        eavesdropper.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        err.close()
        shard.stop_all(daemons)
