"""demo/: the recorded stream is valid, breaks what it promises, and demo/run.sh works unattended."""
from __future__ import annotations

import json
import os
import subprocess

import pytest
from jsonschema import Draft202012Validator

import e2e_support as support

STREAM = support.PACKAGE_ROOT / "demo" / "stream.ndjson"
SCHEMA = support.PACKAGE_ROOT / "docs" / "spec" / "event.schema.json"

# What the demo stream breaks under the `current` edition: (rule, session).
PROMISED = [
    ("alert-frequency", "mail-7f3a"),
    ("alert-for-normal-progress", "mail-7f3a"),
    ("alert-title-single-word", "mail-7f3a"),
    ("alert-single-button", "mail-7f3a"),
    ("alert-message-style", "mail-7f3a"),
    ("alert-pronoun", "mail-7f3a"),
    ("alert-destructive-without-cancel", "mail-7f3a"),
    ("alert-background-action", "mail-7f3a"),
    ("alert-button-yes-no", "photos-a801"),
    ("alert-cancel-label", "photos-a801"),
    ("alert-cancel-label", "fotos-de-5d21"),
    ("alert-button-instructions", "fotos-de-5d21"),
    ("modal-over-popover", "notes-19c2"),
    ("modal-depth", "notes-19c2"),
    ("modal-missing-dismiss", "notes-19c2"),
    ("modal-dismiss-data-loss", "notes-19c2"),
    ("modal-transition-inconsistent", "notes-19c2"),
    ("sheet-without-user-action", "photos-a801"),
    ("sheet-missing-cancel", "photos-a801"),
]
WELL_BEHAVED = "mail-c55e"


def events() -> list[dict]:
    return [json.loads(line) for line in STREAM.read_text().splitlines() if line.strip()]


def test_stream_is_valid_against_the_event_schema():
    validator = Draft202012Validator(json.loads(SCHEMA.read_text()))
    problems = []
    for number, line in enumerate(STREAM.read_text().splitlines(), 1):
        for error in validator.iter_errors(json.loads(line)):
            problems.append(f"line {number}: {error.message}")
    assert problems == []


def test_stream_is_a_realistic_recording():
    stream = events()
    assert 50 <= len(stream) <= 80
    apps = {e["app"] for e in stream if e["type"] == "session.start"}
    sessions = {e["session"] for e in stream}
    assert 2 <= len(apps) <= 3 and len(sessions) >= 3
    assert [e["ts"] for e in stream] == sorted(e["ts"] for e in stream), "recorded in time order"


def test_check_judges_the_stream_without_rejections():
    code, violations, stderr = support.check_json(STREAM)
    assert code in (0, 1), stderr
    assert f"in {len(events())} event(s)" in stderr and "rejected" not in stderr, stderr


def test_stream_breaks_the_promised_rules():
    loaded, _ = support.available_rules()
    promised = [(rule, session) for rule, session in PROMISED if rule in loaded]
    if not promised:
        pytest.skip("none of the rules the demo breaks is loaded yet")
    code, violations, stderr = support.check_json(STREAM)
    found = {(v["rule"], v["session"]) for v in violations}
    assert [p for p in promised if p not in found] == [], stderr
    assert code == 1
    assert [v for v in violations if v["session"] == WELL_BEHAVED] == [], "the well-behaved session breaks nothing"


def test_run_sh_works_unattended(tmp_path):
    env = {
        **os.environ, "SKIP_BUILD": "1", "SKIP_SETUP": "1", "TMPDIR": str(tmp_path),
        "DEMO_EVENTS": support.free_tcp_endpoint(), "DEMO_PUBLISH": support.free_tcp_endpoint(),
        "DEMO_CONTROL": support.free_tcp_endpoint(), "MODALWATCH_BIN_DIR": str(support.bin_dir()),
    }
    rules_dirs = support.rules_dir_args()[1::2]
    if rules_dirs:
        env["DEMO_RULES_DIR"] = rules_dirs[0]
    result = subprocess.run([str(support.PACKAGE_ROOT / "demo" / "run.sh")], env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, timeout=60)
    out = result.stdout.decode()
    assert result.returncode == 0, out + result.stderr.decode()
    assert "== modalwatch status" in out and "events in" in out and f"{len(events())} (" in out, out
    assert "== done" in out
    # It ends with an HTML report of the stream, and prints where; its work folder is gone.
    report = tmp_path / "modalwatch-demo-report.html"
    assert f"open it in a browser: {report}" in out, out
    assert 'data-table="summary"' in report.read_text()
    assert list(tmp_path.iterdir()) == [report], "run.sh removes its work folder"
    loaded, _ = support.available_rules()
    if {"alert-frequency", "modal-depth"} <= loaded:
        assert any("alert-frequency" in line and "mail-7f3a" in line for line in out.splitlines()), out
        assert any("modal-depth" in line and "notes-19c2" in line for line in out.splitlines()), out


DEFAULT_PORTS = ("tcp://127.0.0.1:7450", "tcp://127.0.0.1:7451", "tcp://127.0.0.1:7452")


def demo_env(tmp_path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEMO_")}
    env.update({"SKIP_BUILD": "1", "SKIP_SETUP": "1", "TMPDIR": str(tmp_path), "MODALWATCH_BIN_DIR": str(support.bin_dir())})
    rules_dirs = support.rules_dir_args()[1::2]
    if rules_dirs:
        env["DEMO_RULES_DIR"] = rules_dirs[0]
    env.update(extra)
    return env


def ports_free(endpoints) -> bool:
    import socket
    for endpoint in endpoints:
        host, port = endpoint[len("tcp://"):].rsplit(":", 1)
        with socket.socket() as probe:
            try:
                probe.bind((host, int(port)))
            except OSError:
                return False
    return True


def test_run_sh_with_a_daemon_already_on_the_default_ports_uses_its_own(zctx, tmp_path):
    if not ports_free(DEFAULT_PORTS):
        pytest.skip("the default ports are taken on this machine")
    other = support.Daemon(zctx, tmp_path / "other")
    (tmp_path / "other").mkdir()
    other.events, other.publish, other.control = DEFAULT_PORTS
    state = tmp_path / "other" / "state"
    state.mkdir()
    with open(tmp_path / "other" / "modalwatchd.log", "wb") as log:
        other.process = subprocess.Popen(
            [str(support.daemon_path()), "--events", other.events, "--publish", other.publish, "--control", other.control,
             "--state-dir", str(state), *support.rules_dir_args()], stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    other.log_path = tmp_path / "other" / "modalwatchd.log"
    try:
        other._wait_ready(10)
        work = tmp_path / "demo"
        work.mkdir()
        result = subprocess.run([str(support.PACKAGE_ROOT / "demo" / "run.sh")], env=demo_env(work), stdin=subprocess.DEVNULL,
                                capture_output=True, timeout=90)
        out = result.stdout.decode()
        assert result.returncode == 0, out + result.stderr.decode()
        assert "No such process" not in result.stderr.decode()
        assert f"{len(events())} (" in out, "the demo's own daemon received the stream"
        assert other.status()["events_received"] == 0, "the other daemon was never sent anything"
        assert other.alive
    finally:
        other.stop()


def test_run_sh_refuses_endpoints_in_use_in_one_line(daemon, tmp_path):
    result = subprocess.run(
        [str(support.PACKAGE_ROOT / "demo" / "run.sh")], stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
        env=demo_env(tmp_path, DEMO_EVENTS=support.free_tcp_endpoint(), DEMO_PUBLISH=support.free_tcp_endpoint(),
                     DEMO_CONTROL=daemon.control))
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 1 and len(lines) == 1 and daemon.control in lines[0] and "in use" in lines[0], lines
    assert daemon.status()["events_received"] == 0, "the daemon already there was never sent anything"


def test_check_text_reads_well_to_a_designer():
    """Messages name alerts by title and durations in a person's units; every violation says what to do instead."""
    result = support.run_cli(["check", *support.rules_dir_args(), str(STREAM)])
    assert result.returncode in (0, 1), result.stderr.decode()
    lines = result.stdout.decode().splitlines()
    found = [line for line in lines if line.startswith("demo/") or line.startswith(str(STREAM))]
    suggestions = [line for line in lines if line.startswith("    suggestion: ")]
    assert found and len(suggestions) == len(found), lines
    text = "\n".join(lines)
    assert "@17" not in text and " ms after the last user action" not in text, text
    assert "2024-11-22 15:43:00 UTC: 4 alerts within 10 min; the limit is 3" in text, text
    assert "The action sheet “ps1” appeared 5 s after the last user action; the limit is 1 s" in text, text
    assert "dismissed the alert “Unable to refresh the mailbox”" in text, text
    assert "The modal view “Table style” makes the modal depth 3" in text, text
    assert "“a4”" not in text and "“nm4”" not in text, text
    # concrete where the rule can derive it
    assert "    suggestion: Write the message as “Something went wrong.”" in lines, text
    assert "    suggestion: Title the cancel button “Cancel” instead of “No”" in lines, text
    assert "    suggestion: Add a “Cancel” button at the bottom: “Share”, “Delete Photo”, “Cancel”" in lines, text
    # every alert-content and action-sheet violation has one in the JSON too
    _, violations, _ = support.check_json(STREAM)
    for v in violations:
        if v["module"] in ("alert-content", "action-sheet"):
            assert v["suggestion"], v
