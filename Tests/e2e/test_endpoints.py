"""Endpoints checked before anything binds: the abstract ipc namespace refused for control,
metrics on a non-loopback address only by opt-in, and `--check-config` checking every endpoint with the
same parser start-up uses."""
from __future__ import annotations

import subprocess
import urllib.request
from pathlib import Path

import pytest

import e2e_support as support


def run_daemon(tmp_path: Path, *args: str, config: str | None = None) -> subprocess.CompletedProcess:
    extra: list[str] = []
    if config is not None:
        path = tmp_path / "modalwatchd.yaml"
        path.write_text(config)
        extra = ["--config", str(path)]
    return subprocess.run(
        [str(support.daemon_path()), "--state-dir", str(tmp_path / "state"), *support.rules_dir_args(), *extra, *args],
        capture_output=True, timeout=20)


def one_error_line(result: subprocess.CompletedProcess) -> str:
    lines = [line for line in result.stderr.decode().splitlines() if line.startswith("modalwatchd: ")]
    assert len(lines) == 1, result.stderr.decode()
    return lines[0]


@pytest.mark.parametrize("check", [False, True], ids=["start", "check-config"])
def test_an_abstract_namespace_control_endpoint_is_refused_in_one_line(tmp_path, check):
    args = ["--control", "ipc://@modalwatch-e2e-control", "--events", support.free_tcp_endpoint(),
            "--publish", support.free_tcp_endpoint()]
    result = run_daemon(tmp_path, *args, *(["--check-config"] if check else []))
    assert result.returncode == 1, result
    line = one_error_line(result)
    assert "abstract" in line and "ipc://@modalwatch-e2e-control" in line, line


@pytest.mark.parametrize("check", [False, True], ids=["start", "check-config"])
def test_metrics_on_every_interface_needs_the_opt_in(tmp_path, check):
    endpoints = ["--events", support.free_tcp_endpoint(), "--publish", support.free_tcp_endpoint(),
                 "--control", support.free_tcp_endpoint()]
    result = run_daemon(tmp_path, *endpoints, *(["--check-config"] if check else []), config="metrics: 0.0.0.0:0\n")
    assert result.returncode == 1, result
    line = one_error_line(result)
    assert "0.0.0.0:0" in line and "metrics_allow_remote" in line, line


def test_metrics_on_every_interface_with_the_opt_in_serves(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("metrics: 0.0.0.0:0\nmetrics_allow_remote: true\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        url = daemon.status()["endpoints"]["metrics"][0]
        assert url.startswith("http://0.0.0.0:"), url
    finally:
        assert daemon.stop() == 0, daemon.log()


@pytest.mark.parametrize("args,config,named", [
    ([], "metrics: 127.0.0.1:99999\n", "99999"),
    ([], "metrics: localhost:9464\n", "localhost"),
    (["--publish", "tcp://127.0.0.1:70000"], None, "70000"),
    (["--events", "tcp://127.0.0.1"], None, "no port"),
    (["--events-connect", "tcp://127.0.0.1:*"], None, "'*'"),
    (["--control", "http://127.0.0.1:7452"], None, "'http'"),
    (["--control", "ipc:///tmp/" + "d" * 120 + "/control.sock"], None, "at most 107"),
], ids=["metrics-port", "metrics-host", "publish-port", "events-no-port", "connect-wildcard", "transport", "ipc-length"])
def test_check_config_validates_every_endpoint(tmp_path, args, config, named):
    result = run_daemon(tmp_path, "--check-config", *args, config=config)
    assert result.returncode == 1, result
    line = one_error_line(result)
    assert named in line, line


def test_check_config_passes_good_endpoints(tmp_path):
    result = run_daemon(tmp_path, "--check-config", "--control", "ipc:///tmp/mw-control.sock",
                        "--events", "tcp://*:0", config="metrics: 127.0.0.1:0\n")
    assert result.returncode == 0, result.stderr.decode()


def test_a_client_trickling_bytes_cannot_hold_the_metrics_server(zctx, tmp_path):
    """One connection that sends a byte every 1.5 s holds the one-at-a-time server for at most its
    whole-request deadline (2 s), not per byte: three scrapes meanwhile are all answered."""
    import socket
    import threading
    import urllib.request

    config = tmp_path / "modalwatchd.yaml"
    config.write_text("metrics: 127.0.0.1:0\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    stop = threading.Event()
    try:
        url = daemon.status()["endpoints"]["metrics"][0]
        host, port = url.removeprefix("http://").split("/")[0].rsplit(":", 1)

        connected = threading.Event()

        def trickle() -> None:
            with socket.create_connection((host, int(port)), timeout=10) as slow:
                connected.set()
                for byte in b"GET /metrics HTTP/1.1\r\n":
                    if stop.wait(1.5):
                        return
                    try:
                        slow.send(bytes([byte]))
                    except OSError:
                        return

        thread = threading.Thread(target=trickle)
        thread.start()
        assert connected.wait(10), "the slow client never connected"
        answered = 0
        for _ in range(3):
            with urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=5) as response:
                answered += response.status == 200
        assert answered == 3
    finally:
        stop.set()
        thread.join(timeout=10)
        assert daemon.stop() == 0, daemon.log()


def test_drop_in_files_are_merged_at_start_and_at_a_reload(zctx, tmp_path):
    """`modalwatchd.yaml.d/*.yaml` merged over the main file in name order, at start and at a
    reload (SIGHUP): local settings survive an upgrade's new main file."""
    import signal

    config = tmp_path / "modalwatchd.yaml"
    config.write_text("edition: current\n")
    drop_ins = tmp_path / "modalwatchd.yaml.d"
    drop_ins.mkdir()
    (drop_ins / "10-local.yaml").write_text("edition: ios7\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        assert daemon.status()["edition"] == "ios7"
        (drop_ins / "20-later.yaml").write_text("edition: '2009'\n")
        daemon.send_signal(signal.SIGHUP)
        support.poll_until(lambda: daemon.status(fresh=False)["edition"] == "2009", 5.0)
        assert daemon.status()["edition"] == "2009", daemon.log()[-2000:]
        # A bad drop-in is refused by the reload, naming its file; the last good configuration stays.
        (drop_ins / "30-bad.yaml").write_text("edition: 1999\n")
        daemon.send_signal(signal.SIGHUP)
        support.poll_until(lambda: "30-bad.yaml" in daemon.log(), 5.0)
        assert "30-bad.yaml:1" in daemon.log(), daemon.log()[-2000:]
        assert daemon.status()["edition"] == "2009"
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_the_metrics_flag_overrides_the_file_so_each_instance_serves_its_own(zctx, tmp_path):
    """modalwatchd@N instances share one configuration; `--metrics` (in shard-N.env's
    MODALWATCH_SHARD_ARGS) gives each its own port, over the file's `metrics:`."""
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("metrics: 127.0.0.1:1\n")
    daemons = []
    try:
        for n in range(2):
            folder = tmp_path / f"instance{n}"
            folder.mkdir()
            daemons.append(support.Daemon(zctx, folder, extra_args=["--config", str(config), "--metrics", "127.0.0.1:0"]).start())
        urls = [d.status()["endpoints"]["metrics"][0] for d in daemons]
        assert len(set(urls)) == 2 and all(u.startswith("http://127.0.0.1:") and ":1/" not in u for u in urls), urls
        for url in urls:
            with urllib.request.urlopen(url, timeout=5) as reply:
                assert reply.status == 200 and b"modalwatch_events_received_total" in reply.read()
    finally:
        for daemon in daemons:
            assert daemon.stop() == 0, daemon.log()
