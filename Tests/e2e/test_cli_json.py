"""Every `--json` output of `modalwatch` parses and carries the fields docs/cli.md documents, against a real daemon."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.json"
OTHER = "com.example.other"

STATUS_FIELDS = {
    "ok": bool, "v": int, "version": str, "protocol": int, "uptime_s": (int, float), "edition": str, "modules": list,
    "events_received": int, "events_rejected": int, "rejected_by_reason": dict, "events_per_second": (int, float),
    "sessions_live": int, "violations_published": int, "messages_dropped": int,
}
SESSION_FIELDS = {
    "id": str, "app": str, "device": str, "edition": str, "started_ts": int, "last_ts": int, "last_observed": int,
    "events": int, "alerts": int, "alerts_window": int, "window_ms": int, "presentations": int, "modal_depth": int,
    "max_depth": int, "violations": int, "foreground": bool, "tasks_running": int, "stack_depth": int,
}
STACK_FIELDS = {"depth": int, "kind": str, "id": str, "ts": int, "nav_depth": int, "age_ms": int}
RECORD_FIELDS = {"type": str, "ts": int, "observed": int, "age_ms": int, "modal_depth": int, "stack_depth": int}
JOURNAL_FIELDS = {"capacity": int, "recorded": int, "held": int, "events": int, "complete": bool}
RULE_FIELDS = {
    "id": str, "rev": int, "module": str, "severity": str, "editions": list, "active": bool, "summary": str,
    "guideline": str, "source": str, "parameters": list,
}
PARAMETER_FIELDS = {"name": str, "kind": str, "default": int, "value": int, "display": str, "meaning": str}
SEND_FIELDS = {"events": int, "messages": int, "seconds": (int, float), "endpoint": str}


@pytest.fixture(scope="module")
def loaded(zctx, tmp_path_factory):
    """One daemon holding three sessions (alerts, modals, quiet) whose violations are stored."""
    workdir = tmp_path_factory.mktemp("json")
    daemon = support.Daemon(zctx, workdir).start()
    events = (streams.alert_frequency_session("J-alerts", APP) + streams.modal_depth_session("J-modal", APP, T0 + 1000)
              + streams.quiet_session("J-quiet", OTHER)[:-1])
    stream = support.write_stream(workdir / "loaded.ndjson", events)
    sent = support.cli_json(["send", str(stream), "--events", daemon.events, "--json"])
    support.assert_fields(sent, SEND_FIELDS, "send --json")
    assert sent["events"] == len(events) and sent["messages"] == len(events), sent
    daemon.wait_status(lambda s: s["events_judged"] >= len(events) and s["violations_stored"] >= 2, what="the stream judged and stored")
    yield daemon
    code = daemon.stop()
    assert code == 0, daemon.log()[-2000:]


def test_status_json_fields(loaded):
    status = support.cli_json(["status", "--control", loaded.control, "--json"])
    support.assert_fields(status, STATUS_FIELDS, "status --json")
    assert status["ok"] is True and status["v"] == 1 and status["sessions_live"] == 3


def test_sessions_json_fields_sort_app_and_limit(loaded):
    listing = support.cli_json(["sessions", "--control", loaded.control, "--json"])
    support.assert_fields(listing, {"ok": bool, "v": int, "total": int, "now": int, "sessions": list}, "sessions --json")
    assert listing["total"] == 3 and len(listing["sessions"]) == 3
    for session in listing["sessions"]:
        support.assert_fields(session, SESSION_FIELDS, "a session of sessions --json")
    by_id = {s["id"]: s for s in listing["sessions"]}
    assert by_id["J-alerts"]["alerts"] == 4 and by_id["J-alerts"]["alerts_window"] == 4, by_id["J-alerts"]
    assert by_id["J-alerts"]["window_ms"] == 600_000, "alert-frequency's window in force"
    assert by_id["J-modal"]["max_depth"] == 3 and by_id["J-modal"]["modal_depth"] == 0
    assert by_id["J-quiet"]["app"] == OTHER

    def ids(*args: str) -> list[str]:
        return [s["id"] for s in support.cli_json(["sessions", "--control", loaded.control, "--json", *args])["sessions"]]

    assert ids("--sort", "alerts")[0] == "J-alerts"
    assert ids("--sort", "events")[0] == "J-modal"
    assert ids("--sort", "violations")[-1] == "J-quiet"
    assert sorted(ids("--app", APP)) == ["J-alerts", "J-modal"]
    assert ids("--app", "com.example.none") == []
    limited = support.cli_json(["sessions", "--control", loaded.control, "--json", "--limit", "1"])
    assert len(limited["sessions"]) == 1 and limited["total"] == 3


def test_session_json_fields(loaded):
    reply = support.cli_json(["session", "J-alerts", "--control", loaded.control, "--json", "--events", "3"])
    support.assert_fields(reply, {"ok": bool, "v": int, "now": int, "session": dict, "timeline": list, "events": list,
                                  "journal": dict, "violations": list}, "session --json")
    session = reply["session"]
    support.assert_fields(session, {**{k: v for k, v in SESSION_FIELDS.items() if k not in ("alerts_window", "window_ms")},
                                    "live": bool, "stack": list}, "session --json: session")
    assert session["live"] is True
    support.assert_fields(reply["journal"], JOURNAL_FIELDS, "session --json: journal")
    assert reply["journal"]["complete"] is True and reply["journal"]["events"] == 9
    assert len(reply["events"]) == 3, "--events 3"
    assert len(reply["timeline"]) == 8, "four alerts presented and dismissed"
    for record in reply["events"] + reply["timeline"]:
        support.assert_fields(record, RECORD_FIELDS, "a journal record")
    violations = support.poll_until(lambda: session_violations(loaded, "J-alerts"), 5)
    assert violations, "the session's violations come from the history store"
    assert [v["rule"] for v in violations] == ["alert-frequency"]
    for violation in violations:
        support.assert_fields(violation, support.VIOLATION_FIELDS, "a violation of session --json")


def session_violations(daemon, session_id):
    return support.cli_json(["session", session_id, "--control", daemon.control, "--json"])["violations"]


def test_top_json_snapshot(loaded):
    snapshot = support.cli_json(["top", "--control", loaded.control, "--json"])
    support.assert_fields(snapshot, {"now": (int, float), "status": dict, "sessions": list, "total": int,
                                     "events_per_second": (int, float), "violations_per_second": (int, float)}, "top --json")
    assert snapshot["violations_per_second"] == 0 and snapshot["events_per_second"] == 0, "nothing new between the two looks"
    support.assert_fields(snapshot["status"], STATUS_FIELDS, "top --json: status")
    assert snapshot["total"] == 3
    for session in snapshot["sessions"]:
        support.assert_fields(session, SESSION_FIELDS, "a session of top --json")
    assert snapshot["sessions"][0]["id"] == "J-modal", "at equal rates, the session with the most events is the busiest"


def test_rules_json_offline_and_from_the_daemon(loaded):
    offline = support.cli_json(["rules", "--json", *support.rules_dir_args()])
    live = support.cli_json(["rules", "--json", "--control", loaded.control])
    for listing, what in ((offline, "rules --json"), (live, "rules --control --json")):
        support.assert_fields(listing, {"edition": str, "rules": list}, what)
        assert listing["edition"] == "current" and listing["rules"], listing
        for rule in listing["rules"]:
            support.assert_fields(rule, RULE_FIELDS, f"a rule of {what}")
            for parameter in rule["parameters"]:
                support.assert_fields(parameter, PARAMETER_FIELDS, f"a parameter of {what}")
    assert [r["id"] for r in offline["rules"]] == [r["id"] for r in live["rules"]]
    ios7 = support.cli_json(["rules", "--json", "--control", loaded.control, "--edition", "ios7"])
    assert ios7["rules"] and all("ios7" in r["editions"] for r in ios7["rules"])


def test_violations_json_lines(loaded):
    result = support.run_cli(["violations", "--control", loaded.control, "--json"])
    assert result.returncode == 0, result.stderr.decode()
    lines = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert {(v["rule"], v["session"]) for v in lines} >= {("alert-frequency", "J-alerts"), ("modal-depth", "J-modal")}
    for violation in lines:
        support.assert_fields(violation, support.VIOLATION_FIELDS, "violations --json")
    only = support.run_cli(["violations", "--control", loaded.control, "--json", "--session", "J-modal"])
    assert [json.loads(line)["session"] for line in only.stdout.decode().splitlines()] == ["J-modal"]


def test_check_json_and_its_alias(tmp_path):
    stream = support.write_stream(tmp_path / "alerts.ndjson", streams.alert_frequency_session("C1", APP))
    for flag in (["--format", "json"], ["--json"]):
        result = support.run_cli(["check", *flag, *support.rules_dir_args(), str(stream)])
        assert result.returncode == 1, result.stderr.decode()
        violations = [json.loads(line) for line in result.stdout.decode().splitlines()]
        assert [v["rule"] for v in violations] == ["alert-frequency"]
        for violation in violations:
            support.assert_fields(violation, support.VIOLATION_FIELDS, "check --json")


def test_send_json_at_a_rate(tmp_path, daemon):
    events = streams.quiet_session("R1", APP) + streams.quiet_session("R2", APP, T0 + 10_000)
    stream = support.write_stream(tmp_path / "rate.ndjson", events)
    started = time.monotonic()
    sent = support.cli_json(["send", str(stream), "--events", daemon.events, "--rate", "40", "--json"])
    elapsed = time.monotonic() - started
    support.assert_fields(sent, SEND_FIELDS, "send --json")
    assert sent["events"] == 8 and sent["rate_limit"] == 40
    assert elapsed >= 7 / 40, f"8 events at 40/s take at least 0.175 s, took {elapsed:.3f} s"
    assert sent["events_per_second"] <= 60, sent
    daemon.wait_status(lambda s: s["events_judged"] >= 8, what="8 events judged")


def test_keygen_json(tmp_path):
    pair = support.cli_json(["keygen", "--json"])
    support.assert_fields(pair, {"public_key": str, "secret_key": str}, "keygen --json")
    assert len(pair["public_key"]) == 40 and len(pair["secret_key"]) == 40
    written = support.cli_json(["keygen", "--json", "--output", str(tmp_path / "key")])
    support.assert_fields(written, {"public_key": str, "file": str}, "keygen --json --output")
    assert written["public_key"] in (tmp_path / "key").read_text() and "secret_key" not in written
