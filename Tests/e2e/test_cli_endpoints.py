"""Where the command line finds the daemon (interfaces.md): `--control`, else `MODALWATCH_CONTROL`, else `control:`
of the daemon's config file (`--config`, `MODALWATCH_CONFIG`, `/etc/modalwatch/modalwatchd.yaml`), else the default;
`tail` finds the publish endpoint the same way. A missing ipc:// socket fails at once, with one line."""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

import e2e_support as support
import streams


@pytest.fixture
def ipc_daemon(zctx, tmp_path):
    """A daemon on ipc:// endpoints, as under systemd."""
    instance = support.Daemon(zctx, tmp_path, ipc=True).start()
    yield instance
    if instance.alive:
        assert instance.stop() == 0, instance.log()


def cli(args: list[str], env: dict[str, str], timeout: float = 20.0) -> subprocess.CompletedProcess:
    """`modalwatch ARGS` with `env` added to an environment free of the variables under test."""
    base = {k: v for k, v in os.environ.items() if k not in ("MODALWATCH_CONTROL", "MODALWATCH_PUBLISH", "MODALWATCH_CONFIG")}
    return subprocess.run([str(support.cli_path()), *args], capture_output=True, timeout=timeout,
                          env={**base, "NO_COLOR": "1", **env})


def config_file(tmp_path: Path, name: str, **keys: str) -> Path:
    path = tmp_path / name
    path.write_text("".join(f"{key}: {value}\n" for key, value in keys.items()))
    return path


def answered_by(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr.decode()
    return json.loads(result.stdout)


def test_the_environment_variable_names_the_daemon(ipc_daemon):
    status = answered_by(cli(["status", "--json"], {"MODALWATCH_CONTROL": ipc_daemon.control}))
    assert status["ok"] is True and "events_received" in status


def test_the_config_file_names_the_daemon(ipc_daemon, tmp_path):
    config = config_file(tmp_path, "modalwatchd.yaml", control=ipc_daemon.control)
    assert answered_by(cli(["status", "--json"], {"MODALWATCH_CONFIG": str(config)}))["ok"] is True
    assert answered_by(cli(["sessions", "--json", "--config", str(config)], {}))["ok"] is True


def test_flag_beats_environment_beats_config(ipc_daemon, tmp_path):
    nowhere = f"ipc://{ipc_daemon.ipc_folder}/nobody.sock"
    config = config_file(tmp_path, "modalwatchd.yaml", control=nowhere)
    # The environment beats the config file.
    assert answered_by(cli(["status", "--json"], {"MODALWATCH_CONTROL": ipc_daemon.control, "MODALWATCH_CONFIG": str(config)}))["ok"]
    # The flag beats both.
    result = cli(["status", "--json", "--control", ipc_daemon.control], {"MODALWATCH_CONTROL": nowhere, "MODALWATCH_CONFIG": str(config)})
    assert answered_by(result)["ok"]
    # And each, when it is the one that counts, is the one asked: the missing socket it names is reported.
    result = cli(["status", "--control", nowhere], {"MODALWATCH_CONTROL": ipc_daemon.control})
    assert result.returncode == 3 and "nobody.sock" in result.stderr.decode()
    result = cli(["status"], {"MODALWATCH_CONTROL": nowhere, "MODALWATCH_CONFIG": str(config_file(tmp_path, "ok.yaml", control=ipc_daemon.control))})
    assert result.returncode == 3 and "nobody.sock" in result.stderr.decode()


def test_a_named_config_file_that_does_not_read_is_bad_usage(tmp_path):
    result = cli(["status"], {"MODALWATCH_CONFIG": str(tmp_path / "absent.yaml")})
    assert result.returncode == 2 and "absent.yaml" in result.stderr.decode(), result.stderr.decode()


def test_a_missing_ipc_socket_fails_at_once_with_one_line(tmp_path):
    missing = f"ipc://{tmp_path}/control.sock"
    started = time.monotonic()
    result = cli(["status", "--control", missing], {})
    took = time.monotonic() - started
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 3, lines
    assert took < 1.0, f"took {took:.2f} s: it waited for the timeout"
    assert len(lines) == 1 and f"{tmp_path}/control.sock" in lines[0] and "start" in lines[0], lines
    # Not a socket: also at once.
    (tmp_path / "plain").write_text("")
    result = cli(["sessions", "--control", f"ipc://{tmp_path}/plain"], {})
    assert result.returncode == 3 and "not a socket" in result.stderr.decode()


@pytest.mark.needs_rules("alert-frequency")
def test_tail_finds_the_publish_endpoint_in_the_environment_and_the_config(ipc_daemon, tmp_path):
    config = config_file(tmp_path, "modalwatchd.yaml", publish=ipc_daemon.publish, control=ipc_daemon.control)
    for env in ({"MODALWATCH_PUBLISH": ipc_daemon.publish, "MODALWATCH_CONTROL": ipc_daemon.control},
                {"MODALWATCH_CONFIG": str(config)}):
        base = {k: v for k, v in os.environ.items() if not k.startswith("MODALWATCH_") or k == "MODALWATCH_BIN_DIR"}
        sender = support.EventSender(ipc_daemon.context, ipc_daemon.events)
        sender.warm_up(ipc_daemon)
        try:
            code, out, err = support.tail_while_feeding(
                ["--json", "--count", "1"],
                lambda n: sender.batch(streams.alert_frequency_session(f"env-{len(env)}-{n}", "com.example.endpoints")),
                seconds=8, interval=0.2, env={**base, **env})
        finally:
            sender.close()
        assert code == 0, err.decode()
        assert json.loads(out.decode().splitlines()[0])["rule"] == "alert-frequency"
