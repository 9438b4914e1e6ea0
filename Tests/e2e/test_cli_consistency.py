"""The command line is even: each command says what it left out and how to see it, refuses what it cannot do in one
line (exit 2), checks rule ids, fits the terminal, and prints JSON when asked for JSON."""
from __future__ import annotations

import json
import re
import time

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.even"
LONG_APP = "com.example.a-rather-long-application-identifier"


def single_button_alerts(count: int, app: str = APP) -> list[dict]:
    """`count` sessions with one one-button alert each: `alert-single-button` fires once per session."""
    events = []
    for n in range(count):
        session = f"one-{n:03d}"
        events += [streams.start(session, app, T0 + n),
                   {"v": 1, "type": "alert.presented", "session": session, "ts": T0 + n + 1_000, "id": f"{session}-o",
                    "title": "Unable to load photos", "message": "Check the connection and try again.",
                    "buttons": [{"title": "OK", "style": "default"}]}]
    return events


@pytest.fixture(scope="module")
def many(zctx, tmp_path_factory):
    """A daemon whose history holds more than 50 violations."""
    workdir = tmp_path_factory.mktemp("even")
    daemon = support.Daemon(zctx, workdir).start()
    events = single_button_alerts(60)
    stream = support.write_stream(workdir / "many.ndjson", events)
    result = support.run_cli(["send", str(stream), "--events", daemon.events])
    assert result.returncode == 0, result.stderr.decode()
    daemon.wait_status(lambda s: s["events_judged"] >= len(events) and s["violations_stored"] >= 60, what="60 violations stored")
    yield daemon
    assert daemon.stop() == 0, daemon.log()[-2000:]


def stored(daemon) -> int:
    lines = support.run_cli(["violations", "--control", daemon.control, "--json", "--limit", "10000"]).stdout.decode().splitlines()
    return len(lines)


@pytest.mark.needs_rules("alert-single-button")
def test_violations_says_how_many_more_match_and_how_to_see_them(many):
    total = stored(many)
    assert total > 50, "the premise: more than the default 50"
    result = support.run_cli(["violations", "--control", many.control])
    assert result.returncode == 0, result.stderr.decode()
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith("FOUND") and len(lines) == 1 + 50 + 1, lines[-3:]
    assert lines[-1] == f"50 shown; {total - 50} more match: --limit {total} shows them all", lines[-1]
    everything = support.run_cli(["violations", "--control", many.control, "--limit", str(total)]).stdout.decode().splitlines()
    assert len(everything) == 1 + total and "more match" not in everything[-1]
    # The largest --limit still looks past itself (in pages the daemon takes).
    largest = support.run_cli(["violations", "--control", many.control, "--limit", "10000"])
    assert largest.returncode == 0 and len(largest.stdout.decode().splitlines()) == 1 + total, largest.stderr.decode()


@pytest.mark.parametrize("limit", ["0", "-1", "10001"])
def test_violations_limit_must_be_a_positive_integer(limit):
    result = support.run_cli(["violations", "--limit", limit])
    stderr = result.stderr.decode()
    assert result.returncode == 2, stderr
    assert "--limit must be a positive integer" in stderr and "Missing value" not in stderr, stderr


def test_sessions_limit_minus_one_says_what_is_wrong():
    result = support.run_cli(["sessions", "--limit", "-1"])
    stderr = result.stderr.decode()
    assert result.returncode == 2 and "Missing value" not in stderr and "--limit must be" in stderr, stderr


@pytest.mark.needs_rules("alert-single-button", "alert-frequency")
def test_violations_refuses_an_unknown_rule_with_the_nearest(many):
    result = support.run_cli(["violations", "--control", many.control, "--rule", "alert-frequncy"])
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 2 and len(lines) == 1, lines
    assert "did you mean 'alert-frequency'?" in lines[0], lines
    # A known rule with nothing stored is no error.
    result = support.run_cli(["violations", "--control", many.control, "--rule", "alert-frequency"])
    assert result.returncode == 0 and "no violations match" in result.stderr.decode()


def test_violations_from_a_state_dir_refuses_an_unknown_rule(many, tmp_path):
    result = support.run_cli(["violations", "--state-dir", str(many.workdir / "state"), "--rule", "no-such-rule"])
    assert result.returncode == 2 and "unknown rule 'no-such-rule'" in result.stderr.decode(), result.stderr.decode()


def test_tail_refuses_an_unknown_rule_at_once(many):
    started = time.monotonic()
    result = support.run_cli(["tail", "--publish", many.publish, "--control", many.control, "--rule", "no-such-rule"], timeout=10)
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "unknown rule 'no-such-rule'" in lines[0], lines
    assert time.monotonic() - started < 3


def test_a_mistyped_command_gets_the_nearest():
    result = support.run_cli(["staus"])
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and "did you mean 'status'?" in lines[0], lines
    result = support.run_cli(["violatons", "--limit", "3"])
    assert result.returncode == 2 and "did you mean 'violations'?" in result.stderr.decode()


def test_rules_has_a_header_and_shows_the_guideline_offline_and_from_the_daemon(many):
    listing = support.cli_json(["rules", "--json", *support.rules_dir_args()])
    for verbose in ([], ["--verbose"]):
        offline = support.run_cli(["rules", *verbose, *support.rules_dir_args()])
        live = support.run_cli(["rules", *verbose, "--control", many.control])
        for result in (offline, live):
            assert result.returncode == 0, result.stderr.decode()
            lines = result.stdout.decode().splitlines()
            assert re.match(r"RULE\s+MODULE\s+SEVERITY\s+EDITIONS\s+LANGUAGES\s+PARAMETERS$", lines[0]), lines[0]
            text = result.stdout.decode()
            for rule in listing["rules"]:
                assert rule["guideline"] in text, (rule["id"], "its guideline, under its row")
                if verbose:
                    assert "fires when: " + rule["summary"] in text, (rule["id"], "--verbose: when it fires")
                elif rule["guideline"] != rule["summary"]:
                    assert rule["summary"] not in text, (rule["id"], "when it fires is for --verbose")
        assert offline.stdout == live.stdout, "the same listing from the modules and from the daemon"


def test_rules_verify_json_prints_json():
    result = support.run_cli(["rules", "--verify", "--json", *support.rules_dir_args()], timeout=120)
    report = json.loads(result.stdout)
    assert result.returncode == (1 if report["failed"] else 0), result.stderr.decode()
    assert report["passed"] > 0 and report["rules"] > 0 and report["examples"]
    assert {"rule", "example", "edition", "expected", "found", "rejected", "passed"} <= set(report["examples"][0])


def test_rules_dir_that_does_not_exist_exits_2_with_one_line(tmp_path):
    for args in (["rules"], ["check", "-"]):
        result = support.run_cli([*args, "--rules-dir", str(tmp_path / "nonexistent")], stdin=b"")
        lines = result.stderr.decode().splitlines()
        assert result.returncode == 2 and len(lines) == 1 and "nonexistent" in lines[0], (args, lines)


def test_check_with_every_line_rejected_exits_2(tmp_path):
    stream = tmp_path / "not-events.ndjson"
    stream.write_text("hello\nworld\n{\"not\": \"an event\"}\n")
    result = support.run_cli(["check", str(stream), *support.rules_dir_args()])
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 2, lines
    assert len(lines) == 1 and "every event was rejected (3 of 3" in lines[0], lines


def test_check_with_some_lines_rejected_judges_the_rest(tmp_path):
    stream = tmp_path / "partly.ndjson"
    stream.write_bytes(b"hello\n" + b"".join(support.encode(e) + b"\n" for e in streams.alert_frequency_session("P1", APP)))
    result = support.run_cli(["check", str(stream), *support.rules_dir_args()])
    stderr = result.stderr.decode()
    assert result.returncode == 1 and "1 rejected" in stderr, stderr


def test_json_output_does_not_escape_slashes(many):
    for args in (["status"], ["violations", "--limit", "3"], ["sessions", "--limit", "3"], ["top"]):
        result = support.run_cli([*args, "--control", many.control, "--json"])
        assert result.returncode == 0, (args, result.stderr.decode())
        out = result.stdout.decode()
        assert "\\/" not in out, (args, out[:400])
    status = json.loads(support.run_cli(["status", "--control", many.control, "--json"]).stdout)
    assert "tcp://" in json.dumps(status, ensure_ascii=False), "the endpoints are there, with their slashes"


@pytest.mark.needs_rules("alert-single-button")
def test_top_json_gives_both_rates_alike(many):
    snapshot = support.cli_json(["top", "--control", many.control, "--json", "--interval", "0.3"])
    for key in ("events_per_second", "violations_per_second"):
        assert isinstance(snapshot[key], (int, float)) and not isinstance(snapshot[key], bool), (key, snapshot[key])


@pytest.mark.needs_rules("alert-single-button")
def test_tail_aligns_its_columns(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path).start()
    sender = support.EventSender(daemon.context, daemon.events)
    sender.warm_up(daemon)

    def feed(n: int) -> None:
        for app, session in (("com.ex.a", f"s{n}"), ("com.example.much.longer", f"session-{n}-x")):
            events = single_button_alerts(1, app)
            for e in events:
                e["session"] = session
                if "id" in e:
                    e["id"] = f"{session}-o"
            sender.batch(events)
    try:
        _, out, err = support.tail_while_feeding(["--publish", daemon.publish, "--control", daemon.control, "--count", "4"],
                                                 feed, seconds=10, interval=0.2, env={**support.os.environ, "NO_COLOR": "1"})
    finally:
        sender.close()
        assert daemon.stop() == 0
    lines = [line for line in out.decode().splitlines() if not line.lstrip().startswith("suggestion: ")]
    assert len(lines) == 4, (lines, err.decode())
    # Where each line's app, session and message start: the same column on every line.
    starts = set()
    for line in lines:
        app = re.search(r"com\.ex\S*", line).start()
        session = re.search(r" (s\d+|session-\d+-x)\s+", line)
        starts.add((app, session.start(1), session.end()))
    assert len(starts) == 1, "\n".join(lines)


def test_top_fits_80_columns(tmp_path, zctx):
    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        events = single_button_alerts(3, LONG_APP)
        stream = support.write_stream(tmp_path / "long.ndjson", events)
        assert support.run_cli(["send", str(stream), "--events", daemon.events]).returncode == 0
        daemon.wait_status(lambda s: s["events_judged"] >= len(events), what="judged")
        tmux = support.Tmux(tmp_path, width=80, height=24)
        try:
            tmux.start(f"{support.cli_path()} top --control {daemon.control} --interval 0.5; sleep 30", env={"NO_COLOR": "1"})
            screen = tmux.wait_for(lambda s: "VIOLATIONS" in s and "one-000" in s)
            lines = screen.splitlines()
            assert max(len(line) for line in lines) <= 80, screen
            header = " ".join(lines[:4])
            for part in ("modalwatch top", "edition current", "events ", "rejected ", "sessions 3 live", "violations ", "dropped "):
                assert part in header, (part, screen)
            table = next(line for line in lines if line.startswith("SESSION"))
            assert re.search(r"VIOLATIONS\s+LAST EVENT$", table), table
            row = next(line for line in lines if line.startswith("one-000"))
            assert re.search(r"\s1\s+(now|\d.* ago)$", row), row
        finally:
            tmux.kill()
    finally:
        assert daemon.stop() == 0
