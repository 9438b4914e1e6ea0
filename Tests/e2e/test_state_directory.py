"""The state directory belongs to one daemon (interfaces.md), only its user (or `history.group`) reads it, and its
removal under a running daemon is seen within seconds: the store goes failing and the spool takes over."""
from __future__ import annotations

import grp
import os
import shutil
import stat
import subprocess
import threading
import time
from pathlib import Path

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"
HISTORY_FILES = ("history.sqlite", "history.sqlite-wal", "history.sqlite-shm")


def run_second(state: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(support.daemon_path()), "--state-dir", str(state), *support.rules_dir_args(),
         "--events", support.free_tcp_endpoint(), "--publish", support.free_tcp_endpoint(),
         "--control", support.free_tcp_endpoint()],
        capture_output=True, timeout=20)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_second_daemon_on_the_same_state_directory_is_refused_in_one_line(zctx, tmp_path):
    first = support.Daemon(zctx, tmp_path).start()
    state = tmp_path / "state"
    try:
        result = run_second(state)
        assert result.returncode == 1, result
        lines = [line for line in result.stderr.decode().splitlines() if str(state) in line]
        assert len(lines) == 1, result.stderr.decode()
        assert f"pid {first.process.pid}" in lines[0], lines[0]
        assert first.status()["history_state"] == "ok", "the first daemon goes on"
    finally:
        assert first.stop() == 0, first.log()
    # Once the first is gone, the directory is free again.
    again = support.Daemon(zctx, tmp_path).start()
    assert again.stop() == 0, again.log()


@pytest.mark.needs_rules("alert-frequency")
def test_the_state_directory_and_the_history_are_the_users_alone(zctx, tmp_path):
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    os.chmod(state, 0o755)                      # as a careless operator or an older release left it
    (state / "history.reserve").write_bytes(b"")
    os.chmod(state / "history.reserve", 0o644)
    (state / "notes.txt").write_text("someone else's file")
    os.chmod(state / "notes.txt", 0o644)
    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        sender.batch(streams.alert_frequency_session("MODE", APP, T0))
        daemon.wait_status(lambda s: s["violations_stored"] == 1, what="one violation stored")
        assert mode(state) == 0o700, oct(mode(state))
        for name in HISTORY_FILES + ("history.reserve",):
            assert mode(state / name) == 0o600, (name, oct(mode(state / name)))
        assert "other modes than it keeps" in daemon.log()
        assert mode(state / "notes.txt") == 0o644, "a file that is not the daemon's is left as it is"
        sender.close()
    finally:
        assert daemon.stop() == 0, daemon.log()
    for path in state.iterdir():
        if path.is_file() and path.name != "notes.txt":
            assert mode(path) & 0o077 == 0, (path.name, oct(mode(path)))


@pytest.mark.needs_rules("alert-frequency")
def test_history_group_lets_one_group_read(zctx, tmp_path):
    others = [g for g in grp.getgrall() if g.gr_gid != os.getgid()]
    if not others:
        pytest.skip("no second group on this machine")
    group = others[0]
    config = tmp_path / "modalwatchd.yaml"
    config.write_text(f"history: {{ group: {group.gr_name} }}\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    state = tmp_path / "state"
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        sender.batch(streams.alert_frequency_session("GROUP", APP, T0))
        daemon.wait_status(lambda s: s["violations_stored"] == 1, what="one violation stored")
        assert mode(state) == 0o2750 and os.stat(state).st_gid == group.gr_gid, oct(mode(state))
        for name in HISTORY_FILES:
            info = os.stat(state / name)
            assert stat.S_IMODE(info.st_mode) == 0o640 and info.st_gid == group.gr_gid, (name, oct(info.st_mode))
        sender.close()
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_history_group_that_does_not_exist_is_refused_at_start(tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("history: { group: no-such-group-mw }\n")
    result = subprocess.run(
        [str(support.daemon_path()), "--state-dir", str(tmp_path / "state"), "--config", str(config),
         *support.rules_dir_args(), "--events", support.free_tcp_endpoint(),
         "--publish", support.free_tcp_endpoint(), "--control", support.free_tcp_endpoint()],
        capture_output=True, timeout=20)
    assert result.returncode == 1, result
    assert "no-such-group-mw" in result.stderr.decode(), result.stderr.decode()


@pytest.mark.needs_rules("alert-frequency")
def test_the_state_directory_removed_under_load_fails_the_store_within_seconds(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path).start()
    state = tmp_path / "state"
    stop = threading.Event()
    sent = [0]
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)

        def load() -> None:
            while not stop.is_set():
                sender.batch(streams.alert_frequency_session(f"RM{sent[0]}", APP, T0 + sent[0]))
                sent[0] += 1
                time.sleep(0.002)

        loader = threading.Thread(target=load)
        loader.start()
        daemon.wait_status(lambda s: s["violations_stored"] >= 50, what="violations stored under load")
        shutil.rmtree(state)
        removed = time.monotonic()
        status = daemon.wait_status(lambda s: s["history_state"] == "failing", timeout=5,
                                    what="the store failing once its directory is gone")
        assert time.monotonic() - removed < 3.5
        assert "removed or replaced" in (status["history_error"] or ""), status["history_error"]
        before = status["violations_spooled"]
        later = daemon.wait_status(lambda s: s["violations_spooled"] > before, timeout=5, what="the spool taking over")
        assert later["history_healthy"] is False
        stop.set()
        loader.join()
        final = daemon.wait_status(lambda s: s["violations_published"] == sent[0], timeout=10, what="all published")
        assert final["violations_stored"] + final["violations_spooled"] + final["violations_unstored"] >= sent[0] - 1, final
        sender.close()
    finally:
        stop.set()
        assert daemon.stop(timeout=20) == 0, daemon.log()
    # What only an unlinked file or memory held is counted at the stop, never silently "stored".
    assert "removed or replaced" in daemon.log()
