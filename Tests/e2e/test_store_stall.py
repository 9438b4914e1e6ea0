"""A history another process holds locked (a real `BEGIN IMMEDIATE` from Python's sqlite3, as an operator's
`sqlite3 history.sqlite` would) or reads for a long time: the ingest thread never waits for the store. Control
answers, every event is received, the spool grows (bounded and counted), everything is stored once the lock
goes, and a stop with the store still locked ends in time with every violation stored, spooled to disk or
counted."""
from __future__ import annotations

import signal
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"


def stored_ids(state: Path) -> list[str]:
    return support.stored_ids(state)


def lock_history(state: Path) -> sqlite3.Connection:
    """A write lock on the history, held until the connection rolls back or closes."""
    db = sqlite3.connect(state / "history.sqlite", isolation_level=None, timeout=10)
    db.execute("BEGIN IMMEDIATE")
    return db


def start(zctx, tmp_path: Path, config: str = "", env: dict[str, str] | None = None) -> support.Daemon:
    args: list[str] = []
    if config:
        path = tmp_path / "modalwatchd.yaml"
        path.write_text(config)
        args += ["--config", str(path)]
    return support.Daemon(zctx, tmp_path, extra_args=args, env=env).start()


class WatchdogListener:
    """systemd's notify socket, as the daemon sees it under `WatchdogSec=`: the times of every WATCHDOG=1."""

    def __init__(self, path: Path) -> None:
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(str(path))
        self.socket.settimeout(0.1)
        self.times: list[float] = []
        self.running = True
        self.thread = threading.Thread(target=self._listen)
        self.thread.start()

    def _listen(self) -> None:
        while self.running:
            try:
                message = self.socket.recv(4096).decode()
            except socket.timeout:
                continue
            self.times += [time.monotonic()] * message.count("WATCHDOG=1")

    def longest_gap(self, since: float, until: float) -> float:
        times = [since] + [t for t in self.times if since <= t <= until] + [until]
        return max(b - a for a, b in zip(times, times[1:]))

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.socket.close()


def send_steadily(daemon: support.Daemon, sender: support.EventSender, prefix: str, seconds: float,
                  per_second: int) -> tuple[int, list[float]]:
    """One session (nine events, one violation) per message at `per_second` for `seconds`, asking `status`
    every 0.25 s meanwhile (each must answer within 1 s). Returns the sessions sent and the reply times."""
    sent = 0
    replies: list[float] = []
    started = time.monotonic()
    next_status = started
    while (now := time.monotonic()) - started < seconds:
        due = int((now - started) * per_second)
        while sent < due:
            sender.batch(streams.alert_frequency_session(f"{prefix}{sent}", APP, T0 + sent))
            sent += 1
        if now >= next_status:
            asked = time.monotonic()
            reply = daemon.request({"cmd": "status"}, timeout=1.0)   # TimeoutError fails the test
            assert reply["ok"] is True
            replies.append(time.monotonic() - asked)
            next_status = now + 0.25
        time.sleep(0.002)
    return sent, replies


@pytest.mark.needs_rules("alert-frequency")
def test_a_locked_history_stalls_nothing_and_everything_is_stored_after(zctx, tmp_path):
    notify = tmp_path / "notify.sock"
    watchdog = WatchdogListener(notify)
    daemon = start(zctx, tmp_path, env={"NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": "400000"})
    state = tmp_path / "state"
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/"])
        subscriber.warm_up(sender)
        sender.warm_up(daemon)  # `status` counts the subscriber's probes before the base is read
        before = daemon.status()
        lock = lock_history(state)
        locked_at = time.monotonic()
        sent, replies = send_steadily(daemon, sender, "LOCK", seconds=6, per_second=400)
        status = daemon.wait_status(lambda s: s["events_received"] - before["events_received"] >= 9 * sent,
                                    timeout=5, what="every event received while the history is locked")
        assert status["events_received"] - before["events_received"] == 9 * sent, "not one event lost"
        status = daemon.wait_status(lambda s: s["violations_published"] == sent, timeout=5, what="all published")
        assert status["history_state"] == "failing", support.compact_status(status)
        assert status["violations_spooled"] > 0 and status["violations_unstored"] == 0, status
        assert status["violations_stored"] + status["violations_spooled"] == sent, status
        assert max(replies) < 1.0, replies
        gap = watchdog.longest_gap(locked_at, time.monotonic())
        assert gap < 1.0, f"no WATCHDOG=1 for {gap:.1f} s while the history was locked"

        lock.rollback()
        lock.close()
        after = daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                                   timeout=15, what="the spool written back once the lock is gone")
        assert after["violations_stored"] == sent and after["violations_unstored"] == 0, after
        messages = subscriber.collect(lambda ms: len(subscriber.violations(ms)) >= sent, timeout=10)
        received = [m.body["id"] for m in subscriber.violations(messages)]
        assert len(received) == sent
        assert stored_ids(state) == received, "every published violation stored, in the order published"
        sender.close()
        subscriber.close()
    finally:
        watchdog.close()
        assert daemon.stop(timeout=20) == 0, daemon.log()


@pytest.mark.needs_rules("alert-frequency")
def test_a_stop_while_the_history_is_locked_ends_in_time_and_keeps_everything(zctx, tmp_path):
    daemon = start(zctx, tmp_path, config="stop_timeout: 4s\n")
    state = tmp_path / "state"
    lock = None
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/"])
        subscriber.warm_up(sender)
        lock = lock_history(state)
        sent, _ = send_steadily(daemon, sender, "STOP", seconds=3, per_second=400)
        status = daemon.wait_status(lambda s: s["violations_published"] == sent, timeout=5, what="all published")
        assert status["violations_spooled"] > 0, support.compact_status(status)
        stopped = time.monotonic()
        daemon.process.send_signal(signal.SIGTERM)
        code = daemon.process.wait(timeout=10)
        took = time.monotonic() - stopped
        assert code == 0, daemon.log()
        assert took < 4.0, f"the stop took {took:.1f} s"
        log = daemon.log()
        assert "stop_timeout" not in log, log
        received = [m.body["id"] for m in subscriber.violations(
            subscriber.collect(lambda ms: len(subscriber.violations(ms)) >= sent, timeout=5))]
        assert len(received) == sent
        sender.close()
        subscriber.close()
    finally:
        if lock is not None:
            lock.rollback()
            lock.close()
        if daemon.alive:
            daemon.stop()

    # Whatever was not stored is on disk, and the next start stores it.
    assert (state / "spool.bin").stat().st_size > 0
    again = support.Daemon(zctx, tmp_path).start()
    try:
        status = again.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                                   timeout=15, what="the spool of the stopped run stored")
        assert status["violations_unstored"] == 0, status
        assert sorted(stored_ids(state)) == sorted(received), "every published violation is in the history"
    finally:
        assert again.stop() == 0, again.log()


@pytest.mark.needs_rules("alert-frequency")
def test_a_long_reader_shows_in_status_and_the_wal_stays_bounded(zctx, tmp_path):
    daemon = start(zctx, tmp_path, config="history: { wal_limit: 2097152 }\n")
    state = tmp_path / "state"
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        reader = sqlite3.connect(f"file:{state / 'history.sqlite'}?mode=ro", uri=True, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM violations").fetchone()   # a read transaction, held
        sent = 0
        status = daemon.status()
        assert "history_wal_bytes" in status, sorted(status)
        for round_ in range(60):
            for _ in range(200):
                sender.batch(streams.alert_frequency_session(f"READ{sent}", APP, T0 + sent))
                sent += 1
            status = daemon.wait_status(lambda s: s["violations_published"] == sent, timeout=10, what="published")
            if status["history_state"] == "failing":
                break
        wal = (state / "history.sqlite-wal").stat().st_size
        assert status["history_state"] == "failing", f"a WAL past history.wal_limit fails the store ({wal} bytes)"
        assert wal < 4 * 2097152, wal
        assert status["history_wal_bytes"] > 2097152 // 2, status["history_wal_bytes"]
        assert "wal_limit" in (status["history_error"] or ""), status["history_error"]
        assert "reader" in daemon.log()
        reader.rollback()
        reader.close()
        after = daemon.wait_status(lambda s: s["history_state"] == "ok" and s["violations_spooled"] == 0,
                                   timeout=15, what="stored once the reader is gone")
        assert after["violations_stored"] == sent and after["violations_unstored"] == 0, after
        assert len(stored_ids(state)) == sent
        sender.close()
    finally:
        assert daemon.stop(timeout=20) == 0, daemon.log()
