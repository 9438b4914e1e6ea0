"""A damaged history is checked at start (docs/RELIABILITY.md): a page-corrupted or non-database file is moved
aside and the daemon starts afresh, saying so in one line; a foreign schema is refused in one line without SQL."""
from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"


def run_once(state: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(support.daemon_path()), "--state-dir", str(state), *support.rules_dir_args(),
         "--events", support.free_tcp_endpoint(), "--publish", support.free_tcp_endpoint(),
         "--control", support.free_tcp_endpoint()],
        capture_output=True, timeout=20)


def make_history(zctx, tmp_path: Path, sessions: int) -> Path:
    """A real history with `sessions` violations, written by the daemon and closed by a graceful stop."""
    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        for n in range(sessions):
            sender.batch(streams.alert_frequency_session(f"H{n}", APP, T0 + n))
        daemon.wait_status(lambda s: s["violations_stored"] == sessions, what="the history written")
        sender.close()
    finally:
        assert daemon.stop() == 0, daemon.log()
    history = tmp_path / "state" / "history.sqlite"
    db = sqlite3.connect(history)   # everything into the main file, so that damaging it damages the rows
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    assert len(support.history_violations(history.parent)) == sessions
    return history


@pytest.mark.needs_rules("alert-frequency")
def test_a_page_corrupted_history_is_moved_aside_and_the_daemon_starts_afresh(zctx, tmp_path):
    history = make_history(zctx, tmp_path, 300)
    data = bytearray(history.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    assert len(data) >= 4 * page, len(data)
    for offset in range(2 * page, 4 * page, 7):       # pages 3 and 4: b-tree pages of the table and its indexes
        data[offset] = 0xA5
    history.write_bytes(bytes(data))

    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        lines = [line for line in daemon.log().splitlines() if "damaged" in line]
        assert len(lines) == 1, daemon.log()
        assert "moved aside and started afresh" in lines[0]
        aside = list((tmp_path / "state").glob("history.sqlite.damaged-*"))
        assert [p.name for p in aside if not p.name.endswith(("-wal", "-shm"))], aside
        reply = daemon.request({"cmd": "violations", "limit": 10})
        assert reply["ok"] is True and reply["violations"] == [], reply
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        sender.batch(streams.alert_frequency_session("AFTER", APP, T0))
        daemon.wait_status(lambda s: s["violations_stored"] == 1 and s["history_state"] == "ok", what="a fresh history that works")
        assert len(daemon.request({"cmd": "violations", "limit": 10})["violations"]) == 1
        sender.close()
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_a_file_that_is_not_a_database_is_moved_aside(zctx, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / "history.sqlite").write_bytes(b"this is not SQLite\n" * 500)
    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        assert daemon.status()["history_state"] == "ok"
        assert len(list(state.glob("history.sqlite.damaged-*"))) == 1
        assert sum("damaged" in line for line in daemon.log().splitlines()) == 1
    finally:
        assert daemon.stop() == 0, daemon.log()


@pytest.mark.parametrize("schema,named", [
    ("CREATE TABLE violations (x INTEGER, y TEXT)", "other columns"),
    ("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); CREATE TABLE tags (name TEXT)", "notes, tags"),
], ids=["other-columns", "other-tables"])
def test_a_foreign_schema_is_refused_in_one_line_without_sql(tmp_path, schema, named):
    state = tmp_path / "state"
    state.mkdir()
    history = state / "history.sqlite"
    db = sqlite3.connect(history)
    db.executescript(schema)
    db.commit()
    db.close()
    before = history.read_bytes()
    result = run_once(state)
    assert result.returncode == 1, result
    stderr = result.stderr.decode()
    lines = [line for line in stderr.splitlines() if str(history) in line]
    assert len(lines) == 1, stderr
    assert "not a modalwatch history" in lines[0] and named in lines[0], lines[0]
    for sql in ("CREATE", "SELECT", "INSERT", "PRAGMA"):
        assert sql not in stderr, stderr
    assert history.read_bytes() == before, "a foreign file is left as it is"
