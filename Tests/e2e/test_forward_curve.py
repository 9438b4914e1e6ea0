"""`modalwatch forward` with CURVE lets in only the producers it lists: `--allowed-clients FILE`
is required with `--curve-key-file`, a listed key gets through, an unlisted one forwards nothing
and is counted and logged, and the decrypted events never leave on a plain TCP backend."""
from __future__ import annotations

import json
import signal
import subprocess
import time

import zmq
import zmq.auth

import e2e_support as support


def keygen(path):
    made = support.run_cli(["keygen", "--output", str(path)])
    assert made.returncode == 0, made.stderr
    return zmq.auth.load_certificate(str(path))


def start_forward(tmp_path, *args: str) -> tuple[subprocess.Popen, object]:
    err = open(tmp_path / "forward.err", "wb")
    process = subprocess.Popen([str(support.cli_path()), "forward", "--stats-interval", "0", "--json", *args],
                               stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL)
    return process, err


def test_curve_without_an_allow_list_is_refused_at_start(tmp_path):
    keygen(tmp_path / "forward.key")
    backend = f"ipc://{tmp_path}/backend.sock"
    cases = {
        "no --allowed-clients": ["--curve-key-file", str(tmp_path / "forward.key"), "--backend", backend],
        "plain tcp backend": ["--curve-key-file", str(tmp_path / "forward.key"), "--allowed-clients", str(tmp_path / "clients"),
                              "--backend", support.free_tcp_endpoint()],
    }
    (tmp_path / "clients").write_text("# nobody yet\n")
    for name, args in cases.items():
        try:
            result = subprocess.run([str(support.cli_path()), "forward", "--frontend", support.free_tcp_endpoint(), *args],
                                    capture_output=True, timeout=5, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{name}: the forwarder started and forwards for any client") from None
        lines = result.stderr.decode().strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1, f"{name}: exit {result.returncode}: {result.stderr.decode()}"
        assert "--allowed-clients" in lines[0] or "--backend-server-key" in lines[0], lines[0]


def publish_until_seen(zctx, frontend: str, server_public: bytes, keys: tuple[bytes, bytes], sub: zmq.Socket,
                       tag: bytes, warm_seconds: float) -> tuple[int, bool]:
    """Connects a CURVE PUB with `keys`, sends warm-ups until one comes out of the backend (or
    `warm_seconds` pass), then five messages; returns how many of the five came out, and
    whether a warm-up did."""
    pub = zctx.socket(zmq.PUB)
    pub.linger = 0
    pub.curve_serverkey = server_public
    pub.curve_publickey, pub.curve_secretkey = keys
    pub.connect(frontend)
    try:
        warmed = False
        deadline = time.monotonic() + warm_seconds
        while time.monotonic() < deadline and not warmed:
            pub.send_multipart([b"warm", tag])
            if sub.poll(100):
                while sub.poll(0):
                    frames = sub.recv_multipart()
                    warmed = warmed or frames[1] == tag
        for i in range(5):
            pub.send_multipart([b"msg", tag + b"-%d" % i])
        seen = set()
        end = time.monotonic() + 2
        while time.monotonic() < end and len(seen) < 5:
            if sub.poll(100):
                frames = sub.recv_multipart()
                if frames[0] == b"msg" and frames[1].startswith(tag + b"-"):
                    seen.add(frames[1])
        return len(seen), warmed
    finally:
        pub.close()


def test_a_listed_key_gets_through_and_an_unlisted_one_forwards_nothing(zctx, tmp_path):
    forward_public, _ = keygen(tmp_path / "forward.key")
    listed = keygen(tmp_path / "listed.key")
    (tmp_path / "clients").write_text(f"# the producers\n{listed[0].decode()}   # app servers\n\n")
    frontend, backend = support.free_tcp_endpoint(), f"ipc://{tmp_path}/backend.sock"
    process, err = start_forward(tmp_path, "--frontend", frontend, "--backend", backend,
                                 "--curve-key-file", str(tmp_path / "forward.key"), "--allowed-clients", str(tmp_path / "clients"))
    sub = zctx.socket(zmq.SUB)
    sub.linger = 0
    try:
        assert support.poll_until(lambda: "forwarding" in (tmp_path / "forward.err").read_text(), 10), (tmp_path / "forward.err").read_text()
        sub.subscribe(b"")
        sub.connect(backend)
        forwarded, warmed = publish_until_seen(zctx, frontend, forward_public, listed, sub, b"listed", 10)
        assert warmed and forwarded == 5, f"the listed key: {forwarded} of 5 forwarded"
        unlisted = zmq.curve_keypair()
        forwarded, warmed = publish_until_seen(zctx, frontend, forward_public, unlisted, sub, b"unlisted", 2)
        assert not warmed and forwarded == 0, f"an unlisted key: {forwarded} of 5 forwarded"
    finally:
        sub.close()
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=10)
        err.close()
    assert process.returncode == 0, (tmp_path / "forward.err").read_text()
    summary = json.loads(out.decode().strip().splitlines()[-1])
    assert summary["curve"] is True and summary["clients_accepted"] >= 1 and summary["clients_refused"] >= 1, summary
    log = (tmp_path / "forward.err").read_text()
    assert "refused a client with an unknown CURVE key" in log and unlisted[0].decode() in log, log


def test_a_frontend_in_use_ends_the_forwarder_with_one_line_and_exit_2(zctx, tmp_path):
    """The proxy thread cannot bind: the error reaches the main thread, which exits 2 at once,
    with and without CURVE (whose authentication thread has started first and is stopped)."""
    keygen(tmp_path / "forward.key")
    (tmp_path / "clients").write_text("# nobody yet\n")
    taken = zctx.socket(zmq.PULL)
    taken.linger = 0
    frontend = support.free_tcp_endpoint()
    taken.bind(frontend)
    try:
        for name, args in {"plain": ["--backend", support.free_tcp_endpoint()],
                           "curve": ["--backend", f"ipc://{tmp_path}/backend", "--curve-key-file", str(tmp_path / "forward.key"),
                                     "--allowed-clients", str(tmp_path / "clients")]}.items():
            try:
                result = subprocess.run([str(support.cli_path()), "forward", "--frontend", frontend, *args],
                                        capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{name}: the forwarder did not end on a frontend in use") from None
            # The error is the last line (with CURVE, the empty allow list's warning comes first).
            lines = result.stderr.decode().strip().splitlines()
            assert result.returncode == 2 and lines, f"{name}: exit {result.returncode}: {result.stderr.decode()}"
            assert f"cannot bind the frontend to {frontend}" in lines[-1], lines
    finally:
        taken.close()
