"""The `modalwatch` command line against a real daemon, and offline `check`: output and exit codes (interfaces.md)."""
from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"

# interfaces.md: "2 bad usage or unreadable input". swift-argument-parser exits 64 (EX_USAGE) on a usage error
# unless the command maps it. That known bug, and only that exit code, is reported as an expected failure;
# once fixed, the test passes on its own assertion.
KNOWN_USAGE_EXIT = 64


def write(path: Path, events: list[dict]) -> Path:
    path.write_bytes(b"".join(support.encode(e) + b"\n" for e in events))
    return path


def test_status_json(daemon):
    result = support.run_cli(["status", "--control", daemon.control, "--json"])
    assert result.returncode == 0, result.stderr.decode()
    status = json.loads(result.stdout)
    for key in ("events_received", "events_rejected", "violations_published", "sessions_live"):
        assert isinstance(status[key], int), (key, status)
    assert status["edition"] == "current"
    assert isinstance(status["modules"], list)


def test_status_text(daemon):
    result = support.run_cli(["status", "--control", daemon.control])
    assert result.returncode == 0, result.stderr.decode()
    text = result.stdout.decode()
    for label in ("version", "edition", "events in", "rejected", "sessions live", "violations out"):
        assert label in text, text
    assert "\x1b[" not in text, "no colour when stdout is not a terminal"


@pytest.mark.parametrize("endpoint", ["tcp", "ipc"])
def test_status_against_a_dead_endpoint_exits_3_within_the_timeout(tmp_path, endpoint):
    target = support.free_tcp_endpoint() if endpoint == "tcp" else f"ipc://{tmp_path}/nobody-here.sock"
    timeout_ms = 1000
    started = time.monotonic()
    result = support.run_cli(["status", "--control", target, "--timeout", str(timeout_ms)], timeout=10)
    elapsed = time.monotonic() - started
    assert result.returncode == 3, (result.returncode, result.stderr.decode())
    assert elapsed < timeout_ms / 1000 + 2, f"took {elapsed:.2f} s"
    stderr = result.stderr.decode().strip()
    assert len(stderr.splitlines()) == 1 and target in stderr, stderr


def test_send_to_a_dead_endpoint_exits_3(tmp_path):
    stream = write(tmp_path / "s.ndjson", streams.quiet_session("S", APP))
    started = time.monotonic()
    result = support.run_cli(["send", str(stream), "--events", support.free_tcp_endpoint(), "--timeout", "500"], timeout=10)
    assert result.returncode == 3, result.stderr.decode()
    assert time.monotonic() - started < 2.5


@pytest.mark.parametrize("args", [
    ["status", "--no-such-flag"],
    ["check"],
    ["check", "--fail-on", "sometimes", "x.ndjson"],
    ["check", "--format", "yaml", "x.ndjson"],
    ["no-such-command"],
], ids=["status bad flag", "check no file", "check bad fail-on", "check bad format", "bad command"])
def test_bad_usage_exits_2(args):
    result = support.run_cli(args)
    assert result.stderr.strip(), "a usage error says what is wrong on stderr"
    assert result.returncode == 2, (result.returncode, result.stderr.decode())


def test_daemon_refuses_bad_flags(tmp_path):
    for args in (["--no-such-flag"], ["--edition", "2010"], ["--log-level", "loud"]):
        result = subprocess.run([str(support.daemon_path()), *args, "--state-dir", str(tmp_path)],
                                capture_output=True, timeout=10)
        assert result.returncode != 0, args
        assert result.stderr.strip(), args


def test_daemon_exits_1_when_an_endpoint_is_taken(daemon, tmp_path):
    started = time.monotonic()
    result = subprocess.run(
        [str(support.daemon_path()), "--events", support.free_tcp_endpoint(), "--publish", support.free_tcp_endpoint(),
         "--control", daemon.control, "--state-dir", str(tmp_path)],
        capture_output=True, timeout=10)
    assert result.returncode == 1, result.stderr.decode()
    assert "cannot bind control" in result.stderr.decode(), result.stderr.decode()
    assert time.monotonic() - started < 5
    assert daemon.status()["ok"] is True, "the first daemon is untouched"


def test_bad_usage_says_what_is_wrong():
    result = support.run_cli(["status", "--no-such-flag"])
    assert result.returncode != 0
    assert "--no-such-flag" in result.stderr.decode()


def test_check_clean_stream_exits_0(tmp_path):
    stream = write(tmp_path / "clean.ndjson", streams.quiet_session("Q1", APP) + streams.quiet_session("Q2", APP, T0 + 5000))
    code, violations, stderr = support.check_json(stream)
    assert (code, violations) == (0, []), stderr
    assert "8 event(s)" in stderr, stderr


def test_check_unreadable_file_exits_2(tmp_path):
    code, violations, stderr = support.check_json(tmp_path / "missing.ndjson")
    assert code == 2 and violations == [], stderr
    assert "missing.ndjson" in stderr


def test_check_reads_stdin(tmp_path):
    payload = b"".join(support.encode(e) + b"\n" for e in streams.quiet_session("IN", APP))
    result = support.run_cli(["check", "--format", "json", *support.rules_dir_args(), "-"], stdin=payload)
    assert result.returncode == 0, result.stderr.decode()
    assert "4 event(s)" in result.stderr.decode()


def test_check_counts_rejections_without_failing(tmp_path):
    stream = tmp_path / "bad.ndjson"
    stream.write_bytes(b'{"v":1,"type":"session.start","session":"X"\n' + support.encode(streams.start("Y", APP, T0)) + b"\n")
    code, violations, stderr = support.check_json(stream)
    assert code == 0, stderr
    assert "1 rejected" in stderr and "malformed_json" in stderr, stderr


@pytest.mark.needs_rules("alert-frequency", "modal-depth")
def test_check_exit_codes_follow_fail_on(tmp_path):
    events = streams.alert_frequency_session("W", APP) + streams.modal_depth_session("M", APP, T0 + 100_000)
    stream = write(tmp_path / "warnings.ndjson", events)
    code, violations, stderr = support.check_json(stream)
    assert code == 1, stderr
    rules = {v["rule"] for v in violations}
    assert {"alert-frequency", "modal-depth"} <= rules, rules
    assert {v["severity"] for v in violations} <= {"info", "warning"}, "the premise: this stream has no error"
    code, _, stderr = support.check_json(stream, "--fail-on", "error")
    assert code == 0, f"only warnings, --fail-on error: exit 0 ({stderr})"
    code, _, stderr = support.check_json(stream, "--fail-on", "info")
    assert code == 1, stderr


@pytest.mark.needs_rules("alert-frequency")
def test_check_text_format_names_rule_app_and_session(tmp_path):
    stream = write(tmp_path / "alerts.ndjson", streams.alert_frequency_session("TXT", APP))
    result = support.run_cli(["check", *support.rules_dir_args(), str(stream)])
    assert result.returncode == 1
    lines = [line for line in result.stdout.decode().splitlines() if "alert-frequency" in line]
    assert len(lines) == 1 and "warning" in lines[0] and APP in lines[0] and "TXT" in lines[0], result.stdout.decode()


def test_rules_json_lists_rules():
    result = support.run_cli(["rules", "--json", *support.rules_dir_args()])
    assert result.returncode == 0
    listing = json.loads(result.stdout)
    assert listing["edition"] == "current" and isinstance(listing["rules"], list)
    for rule in listing["rules"]:
        for key in ("id", "rev", "module", "severity", "editions", "summary", "guideline", "parameters"):
            assert key in rule, (key, rule)
