"""The daemon's log for journald: with JOURNAL_STREAM naming its stderr (systemd.exec(5)), each line starts with its
`<N>` syslog priority (sd-daemon.h), has no timestamp of its own, the message first and `logfmt` fields after it;
without it, the log keeps its own format (timestamp, level, label, fields, message)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import e2e_support as support

TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}")


def run_daemon(tmp_path: Path, journal: bool, extra: list[str] = ()) -> list[str]:
    """Starts modalwatchd with stderr on a file (JOURNAL_STREAM naming that file when `journal`), asks it for its
    status, stops it with SIGTERM and returns its log lines."""
    log_path = tmp_path / ("journal.log" if journal else "plain.log")
    control = support.free_tcp_endpoint()
    env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    with open(log_path, "wb") as log:
        if journal:
            info = os.fstat(log.fileno())
            env["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
        process = subprocess.Popen(
            [str(support.daemon_path()), "--events", support.free_tcp_endpoint(), "--publish", support.free_tcp_endpoint(),
             "--control", control, "--state-dir", str(tmp_path / "state"), "--log-level", "debug",
             *support.rules_dir_args(), *extra],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
    try:
        answered = support.poll_until(
            lambda: support.run_cli(["status", "--control", control, "--timeout", "300"]).returncode == 0, timeout=10)
        assert answered, log_path.read_text()
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=10)
    assert code == 0, log_path.read_text()
    return [line for line in log_path.read_text().splitlines() if line.strip()]


def test_with_journal_stream_each_line_has_its_priority_and_the_message_first(tmp_path):
    lines = run_daemon(tmp_path, journal=True)
    assert len(lines) >= 3, lines
    for line in lines:
        match = re.match(r"<([0-7])>(\S.*)$", line)
        assert match, f"no <N> priority prefix: {line!r}"
        assert not TIMESTAMP.search(line), f"a timestamp of its own: {line!r}"
        assert not re.match(r"(trace|debug|info|notice|warning|error|critical) ", match.group(2)), f"a level of its own: {line!r}"
    priorities = {line[1] for line in lines}
    assert "6" in priorities, "info is <6>"
    assert "7" in priorities, "debug is <7> (the daemon ran with --log-level debug)"
    # Fields after the message, as logfmt: key=value, a value with a space (or quote) quoted and escaped.
    logfmt = re.compile(r'^<[0-7]>([^=]+?)((?: [A-Za-z0-9_.-]+=(?:"(?:[^"\\]|\\.)*"|[^\s"=]+))*)$')
    fielded = 0
    for line in lines:
        match = logfmt.match(line)
        assert match, f"not message-then-logfmt: {line!r}"
        fielded += bool(match.group(2))
    assert fielded, f"no line with fields: {lines}"


def test_without_journal_stream_the_format_is_unchanged(tmp_path):
    lines = run_daemon(tmp_path, journal=False)
    assert lines, lines
    for line in lines:
        assert not re.match(r"<[0-7]>", line), line
        assert TIMESTAMP.match(line), f"the stream format starts with its timestamp: {line!r}"
        assert re.match(r"\S+ (trace|debug|info|notice|warning|error|critical) modalwatchd ?:", line), line


def test_journal_stream_naming_another_file_is_not_the_journal(tmp_path):
    other = tmp_path / "other"
    other.write_text("")
    info = os.stat(other)
    log_path = tmp_path / "mismatch.log"
    control = support.free_tcp_endpoint()
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [str(support.daemon_path()), "--events", support.free_tcp_endpoint(), "--publish", support.free_tcp_endpoint(),
             "--control", control, "--state-dir", str(tmp_path / "state"), *support.rules_dir_args()],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            env={**os.environ, "JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"})
    try:
        assert support.poll_until(
            lambda: support.run_cli(["status", "--control", control, "--timeout", "300"]).returncode == 0, timeout=10)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    lines = [line for line in log_path.read_text().splitlines() if line.strip()]
    assert lines and all(TIMESTAMP.match(line) for line in lines), lines


def test_a_configuration_that_does_not_load_is_an_error_for_the_journal(tmp_path):
    config = tmp_path / "bad.yaml"
    config.write_text("no_such_key: 1\n")
    log_path = tmp_path / "bad.log"
    with open(log_path, "wb") as log:
        info = os.fstat(log.fileno())
        code = subprocess.run(
            [str(support.daemon_path()), "--config", str(config), "--state-dir", str(tmp_path / "state"), *support.rules_dir_args()],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, timeout=20,
            env={**os.environ, "JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"}).returncode
    lines = [line for line in log_path.read_text().splitlines() if line.strip()]
    assert code == 1 and lines, lines
    assert any(line.startswith("<3>") and "no_such_key" in line for line in lines), lines
