"""The store-failure contract of violations.md, on a real small filesystem (a tmpfs that fills up and is
freed) and a read-only remount: a bounded spool written back in order, exact counts, `violations_unstored`
and `diag/-/history_unavailable` past the bound, health in `status`, an unwritable state dir refused at start.

Mounting needs root (CI runs as root); elsewhere these tests skip and say why."""
from __future__ import annotations

import os
import subprocess
from collections import Counter
from pathlib import Path
from typing import Iterator

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"


def mount_tmpfs(where: Path, size: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root; CI runs these as root")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB tmpfs, unmounted at the end."""
    where = tmp_path / "small"
    mount_tmpfs(where, "4m")
    yield where
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(fs: Path) -> Path:
    """Writes a filler file until the filesystem is full; returns it."""
    filler = fs / "filler"
    chunk = b"\0" * 65536
    with open(filler, "wb", buffering=0) as f:
        while True:
            try:
                f.write(chunk)
            except OSError:
                break
    with open(filler, "ab", buffering=0) as f:   # the last, partial chunk
        for _ in range(64):
            try:
                f.write(b"\0" * 1024)
            except OSError:
                break
    return filler


def stored_ids(state: Path) -> list[str]:
    return support.stored_ids(state)


def start(zctx, tmp_path: Path, state: Path, config: str = "") -> support.Daemon:
    args = ["--state-dir", str(state)]
    if config:
        path = tmp_path / "modalwatchd.yaml"
        path.write_text(config)
        args += ["--config", str(path)]
    return support.Daemon(zctx, tmp_path, extra_args=args).start()


def send_sessions(sender: support.EventSender, prefix: str, count: int) -> None:
    """`count` sessions, one alert-frequency violation each (every session in one NDJSON batch)."""
    for n in range(count):
        sender.batch(streams.alert_frequency_session(f"{prefix}{n}", APP, T0 + n))


@pytest.mark.needs_rules("alert-frequency")
def test_a_full_disk_loses_nothing_within_the_spool_and_counts_are_exact(zctx, tmp_path, small_fs):
    state = small_fs / "state"
    daemon = start(zctx, tmp_path, state)
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/", "diag/-/history"])
        subscriber.warm_up(sender)
        send_sessions(sender, "BEFORE", 20)
        daemon.wait_status(lambda s: s["violations_stored"] == 20, what="20 violations stored before the disk fills")
        assert daemon.status()["history_state"] == "ok"

        filler = fill(small_fs)
        sent = 20
        for round_ in range(20):   # until the WAL needs space it cannot get
            send_sessions(sender, f"FULL{round_}-", 100)
            sent += 100
            status = daemon.wait_status(lambda s: s["violations_published"] == sent, what=f"{sent} published")
            if status["history_state"] == "failing" and status["violations_spooled"] >= 100:
                break
        else:
            pytest.fail(f"the store never failed on a full disk: {support.compact_status(status)}")
        assert status["history_healthy"] is False and status["history_error"], status
        assert status["violations_stored"] + status["violations_spooled"] == sent, status
        assert status["violations_unstored"] == 0

        filler.unlink()
        daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                           timeout=10, what="the spool written back once the disk has room")
        after = daemon.status()   # read again: one reply's counters are read one after another
        assert after["violations_stored"] == sent and after["violations_unstored"] == 0, after
        # the spool that waited is what was written back now (an earlier round may already have
        # failed and recovered when a checkpoint freed WAL space, so compare what this outage adds)
        assert after["violations_recovered"] - status["violations_recovered"] == status["violations_spooled"], after

        messages = subscriber.collect(lambda ms: len(subscriber.violations(ms)) >= sent, timeout=10)
        received = [m.body["id"] for m in subscriber.violations(messages)]
        assert len(received) == sent == len(set(received))
        assert not subscriber.diagnostics(messages), "nothing was lost, so no history_unavailable"
        rows = stored_ids(state)
        assert rows == received, "every published violation is in the history, in the order published"
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()


@pytest.mark.needs_rules("alert-frequency")
def test_past_the_spools_bound_violations_are_counted_and_reported(zctx, tmp_path, small_fs):
    state = small_fs / "state"
    daemon = start(zctx, tmp_path, state, config="history: { spool_memory: 30000, spool_file: 0 }\n")
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/", "diag/-/history_unavailable"])
        subscriber.warm_up(sender)
        filler = fill(small_fs)
        sent = 0
        for round_ in range(20):
            send_sessions(sender, f"OVER{round_}-", 100)
            sent += 100
            status = daemon.wait_status(lambda s: s["violations_published"] == sent, what=f"{sent} published")
            if status["violations_unstored"] > 0:
                break
        else:
            pytest.fail(f"nothing went past the spool's bound: {support.compact_status(status)}")
        unstored = status["violations_unstored"]
        assert status["history_state"] == "failing"
        assert status["violations_stored"] + status["violations_spooled"] + unstored == sent, status
        assert status["spool_memory_bytes"] <= 30000, status

        messages = subscriber.collect(
            lambda ms: len(subscriber.violations(ms)) >= sent and subscriber.diagnostics(ms), timeout=10)
        notices = subscriber.diagnostics(messages)
        assert notices, "a history_unavailable diagnostic past the bound"
        for notice in notices:
            support.assert_diagnostic_shape(notice.topic, notice.body)
            assert "\n" not in notice.body["detail"]
        assert "not stored" in notices[0].body["detail"], notices[0].body

        filler.unlink()
        daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                           timeout=10, what="the spool written back")
        after = daemon.status()
        assert after["violations_unstored"] == unstored
        rows = stored_ids(state)
        received = [m.body["id"] for m in subscriber.violations(messages)]
        assert len(received) == sent
        assert len(rows) == sent - unstored, "exactly the unstored ones are missing"
        assert set(rows) <= set(received)
        # Kept in order: what is stored is a prefix of what was published (the lost ones came last).
        assert rows == received[:len(rows)]
        assert "violation spool is full" in daemon.log()
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_a_read_only_state_directory_is_refused_at_start_in_one_line(zctx, tmp_path, small_fs):
    state = small_fs / "state"
    daemon = start(zctx, tmp_path, state)          # a history that exists
    assert daemon.stop() == 0, daemon.log()
    assert (state / "history.sqlite").exists()
    remount = subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], capture_output=True, text=True)
    assert remount.returncode == 0, remount.stderr
    result = subprocess.run(
        [str(support.daemon_path()), "--state-dir", str(state), *support.rules_dir_args(),
         "--events", support.free_tcp_endpoint(), "--publish", support.free_tcp_endpoint(),
         "--control", support.free_tcp_endpoint()],
        capture_output=True, timeout=20)
    assert result.returncode == 1, result
    lines = [line for line in result.stderr.decode().splitlines() if str(state) in line]
    assert len(lines) == 1, result.stderr.decode()
    assert "cannot be written" in lines[0] and "Read-only file system" in lines[0], lines[0]


@pytest.mark.needs_rules("alert-frequency")
def test_a_read_only_remount_under_a_running_daemon_is_refused_by_linux(zctx, tmp_path, small_fs):
    """Why the read-only case is checked at start only: while the daemon has its history open for
    writing, Linux refuses `remount,ro` (EBUSY), and the daemon goes on storing."""
    state = small_fs / "state"
    daemon = start(zctx, tmp_path, state)
    try:
        remount = subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], capture_output=True, text=True)
        assert remount.returncode != 0, "the remount went through under an open history"
        assert "busy" in remount.stderr.lower(), remount.stderr
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        send_sessions(sender, "AFTER", 5)
        status = daemon.wait_status(lambda s: s["violations_stored"] == 5, what="5 violations stored after the refused remount")
        assert status["history_state"] == "ok" and status["violations_unstored"] == 0, status
        assert len(stored_ids(state)) == 5
        sender.close()
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_a_state_directory_that_cannot_be_created_is_refused_at_start(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = subprocess.run(
        [str(support.daemon_path()), "--state-dir", str(blocker / "state"), *support.rules_dir_args(),
         "--events", support.free_tcp_endpoint(), "--publish", support.free_tcp_endpoint(),
         "--control", support.free_tcp_endpoint()],
        capture_output=True, timeout=20)
    assert result.returncode == 1
    lines = [line for line in result.stderr.decode().splitlines() if str(blocker) in line]
    assert len(lines) == 1, result.stderr.decode()


@pytest.mark.needs_rules("alert-frequency")
def test_a_history_that_fills_its_disk_by_itself_makes_room_by_its_retention(zctx, tmp_path):
    """The disk is not freed from outside: the history's own rows past `max_rows` (and its WAL) fill
    it. The retention used to wait for an empty spool, and the write-back for the room only the
    retention makes, and neither a DELETE nor a checkpoint can run on a full disk: the store stayed
    failing for good (the 30-minute fault soak met it). Now a failing store gives back its 4 MiB
    reserve, truncates its WAL, applies the retention, and recovers."""
    fs = tmp_path / "fs16"
    fs.mkdir()
    mount_tmpfs(fs, "16m")
    state = fs / "state"
    daemon = start(zctx, tmp_path, state, config="history: { max_rows: 50 }\n")
    try:
        assert (state / "history.reserve").stat().st_size == 4 << 20
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/", "diag/-/history"])
        subscriber.warm_up(sender)
        filler = fill(fs)
        # Leave ~384 KiB: a few hundred violations fill it, well before the next regular prune.
        os.truncate(filler, max(0, filler.stat().st_size - (384 << 10)))
        sent = 0
        for round_ in range(40):
            send_sessions(sender, f"SELF{round_}-", 100)
            sent += 100
            status = daemon.wait_status(lambda s: s["violations_published"] == sent, what=f"{sent} published")
            if status["history_state"] == "failing" or status["violations_spooled"] > 0:
                break
        else:
            pytest.fail(f"the history never filled the disk: {support.compact_status(status)}")

        # The filler stays: only the history's own retention can make the room.
        after = daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                                   timeout=20, what="the store recovered by its own retention")
        after = daemon.status()
        assert after["violations_stored"] + after["violations_unstored"] == sent, after
        assert after["violations_unstored"] == 0, "within the spool's bound nothing is lost"
        assert after["history_pruned"] > 0, after
        rows = stored_ids(state)
        assert len(rows) == after["violations_stored"] - after["history_pruned"], after
        messages = subscriber.collect(lambda ms: len(subscriber.violations(ms)) >= sent, timeout=10)
        received = [m.body["id"] for m in subscriber.violations(messages)]
        assert len(received) == sent
        assert rows == received[len(received) - len(rows):], "the newest violations, in the order published"
        assert filler.exists()
        assert "reserve is given back" in daemon.log()
        sender.close()
        subscriber.close()
    finally:
        try:
            assert daemon.stop() == 0, daemon.log()
        finally:
            subprocess.run(["umount", "-l", str(fs)], capture_output=True)
