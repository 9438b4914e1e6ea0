"""`modalwatch tail` against a real daemon: --app, --rule and --severity receive only what they should, and SIGINT
ends it cleanly. `modalwatch check` on the same streams is the oracle for what the daemon publishes."""
from __future__ import annotations

import json
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

import e2e_support as support
import streams
from streams import T0

APP_A = "com.example.tail.a"
APP_B = "com.example.tail.b"
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


def alert_with_buttons(session: str, ts: int, id: str, title: str, buttons: list[dict]) -> dict:
    return {"v": 1, "type": "alert.presented", "session": session, "ts": ts, "id": id, "title": title,
            "message": "Check the connection and try again.", "buttons": buttons}


def no_buttons_session(session: str, app: str, t0: int = T0) -> list[dict]:
    """An alert without buttons: `alert-no-buttons` (error)."""
    return [streams.start(session, app, t0), alert_with_buttons(session, t0 + 1_000, f"{session}-x", "Unable to sync notes", [])]


def single_button_session(session: str, app: str, t0: int = T0) -> list[dict]:
    """An alert with one button: `alert-single-button` (info)."""
    return [streams.start(session, app, t0),
            alert_with_buttons(session, t0 + 1_000, f"{session}-o", "Unable to load photos", [{"title": "OK", "style": "default"}])]


class Tail:
    """A running `modalwatch tail`, its output read line by line on a thread."""

    def __init__(self, daemon: support.Daemon, *args: str) -> None:
        self.args = list(args)
        self.process = subprocess.Popen(
            [str(support.cli_path()), "tail", "--publish", daemon.publish, *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
            env={**support.os.environ, "NO_COLOR": "1"})
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for raw in self.process.stdout:
            self.lines.append(raw.decode())

    @property
    def violations(self) -> list[dict]:
        return [json.loads(line) for line in list(self.lines)]

    def sessions(self) -> set[str]:
        return {v["session"] for v in self.violations}

    def interrupt(self, timeout: float = 3.0) -> tuple[int, str]:
        self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)
            raise AssertionError(f"tail {self.args} did not exit within {timeout} s of SIGINT")
        self.reader.join(timeout=2)
        return code, self.process.stderr.read().decode()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=5)


def key(v: dict) -> tuple:
    return v["rule"], v["app"], v["session"], v["subject"]


@pytest.mark.needs_rules("alert-frequency", "modal-depth", "alert-no-buttons", "alert-single-button")
def test_tail_filters_by_app_rule_and_severity(daemon, tmp_path):
    tails = {
        "app": Tail(daemon, "--app", APP_A, "--json"),
        "rule": Tail(daemon, "--rule", "alert-frequency", "--json"),
        "severity": Tail(daemon, "--severity", "error", "--json"),
        "app+rule": Tail(daemon, "--app", APP_A, "--rule", "alert-frequency", "--json"),
    }
    passes = {
        "app": lambda v: v["app"] == APP_A,
        "rule": lambda v: v["rule"] == "alert-frequency",
        "severity": lambda v: SEVERITY_RANK[v["severity"]] >= SEVERITY_RANK["error"],
        "app+rule": lambda v: v["app"] == APP_A and v["rule"] == "alert-frequency",
    }
    try:
        sender = support.EventSender(daemon.context, daemon.events)
        sender.warm_up(daemon)
        # Warm up every tail (slow joiners): sessions that give each filter something, until each has printed.
        for n in range(20):
            warm = f"warm-{n}"
            sender.batch(streams.alert_frequency_session(warm, APP_A) + no_buttons_session(f"{warm}-x", APP_A))
            if support.poll_until(lambda: all(t.lines for t in tails.values()), 0.5):
                break
        assert all(t.lines for t in tails.values()), {name: t.lines for name, t in tails.items()}
        # Now every subscription is live: the mix, ending with markers each tail passes (so once a tail has
        # printed all `check` gives through its filter, the daemon has published everything before them).
        mix = (streams.alert_frequency_session("b-freq", APP_B) + streams.modal_depth_session("a-depth", APP_A)
               + no_buttons_session("b-none", APP_B) + single_button_session("b-one", APP_B)
               + single_button_session("a-one", APP_A) + streams.alert_frequency_session("marker", APP_A)
               + no_buttons_session("marker-x", APP_A))
        code, expected_all, stderr = support.check_json(support.write_stream(tmp_path / "mix.ndjson", mix))
        assert code == 1 and expected_all, stderr
        assert {v["severity"] for v in expected_all} == {"info", "warning", "error"}, "the premise: every severity"
        assert {v["app"] for v in expected_all} == {APP_A, APP_B}
        expected = {name: {key(v) for v in expected_all if passes[name](v)} for name in tails}
        for name in tails:
            assert expected[name], f"the premise: the mix has something for --{name}"
        sender.batch(mix)
        sender.close()

        def received(tail: Tail) -> list[dict]:
            return [v for v in tail.violations if not v["session"].startswith("warm-")]

        done = support.poll_until(lambda: all(expected[name] <= {key(v) for v in received(t)} for name, t in tails.items()), 5)
        assert done, {name: sorted(t.sessions()) for name, t in tails.items()}
        for name, tail in tails.items():
            for v in tail.violations:
                assert passes[name](v), f"tail --{name} printed what its filter excludes: {key(v)}"
            assert {key(v) for v in received(tail)} == expected[name], name
            assert len(received(tail)) == len(expected[name]), f"--{name}: each violation once"
        for name, tail in tails.items():
            code, stderr = tail.interrupt()
            assert code == 0, f"tail --{name} exited {code} on SIGINT: {stderr}"
    finally:
        for tail in tails.values():
            tail.kill()


@pytest.mark.needs_rules("alert-frequency")
def test_tail_text_lines_and_count(daemon, tmp_path):
    tail = subprocess.Popen(
        [str(support.cli_path()), "tail", "--publish", daemon.publish, "--app", APP_A, "--count", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**support.os.environ, "NO_COLOR": "1"})
    try:
        sender = support.EventSender(daemon.context, daemon.events)
        sender.warm_up(daemon)
        deadline = time.monotonic() + 8
        n = 0
        while tail.poll() is None and time.monotonic() < deadline:
            sender.batch(streams.alert_frequency_session(f"text-{n}", APP_A))
            n += 1
            time.sleep(0.2)
        sender.close()
        out, err = tail.communicate(timeout=5)
    finally:
        if tail.poll() is None:
            tail.kill()
            tail.wait(timeout=5)
    assert tail.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    assert len(lines) == 2, f"--count 1 prints one violation (its line and its suggestion's) and exits: {lines}"
    assert "warning" in lines[0] and "alert-frequency" in lines[0] and APP_A in lines[0], lines
    assert re.search(r" 4 alerts within 10 min; the limit is 3 \(text-\d+-a4\)$", lines[0]), lines
    assert lines[1].strip().startswith("suggestion: ") and len(lines[1].strip()) > len("suggestion: "), lines
    assert "\x1b[" not in "".join(lines)


def test_tail_sigterm_with_nothing_published_exits_0(daemon):
    tail = Tail(daemon, "--json")
    # Its own loop takes SIGTERM once it has blocked it (the default would end it with no exit code).
    assert support.poll_until(lambda: support.signal_disposition(tail.process.pid, signal.SIGTERM) == "blocked", 5), \
        support.signal_disposition(tail.process.pid, signal.SIGTERM)
    tail.process.send_signal(signal.SIGTERM)
    assert tail.process.wait(timeout=3) == 0
    assert tail.lines == []


def test_tail_locale_prints_only_that_languages_violations(daemon):
    tail = Tail(daemon, "--locale", "de_CH", "--json")
    try:
        sender = support.EventSender(daemon.context, daemon.events)
        sender.warm_up(daemon)
        for n in range(20):
            for session, locale in ((f"de-{n}", "de-DE"), (f"ch-{n}", "de-CH"), (f"en-{n}", None)):
                t0 = T0 + n * 100_000
                start = streams.start(session, APP_A, t0, **({"locale": locale} if locale else {}))
                sender.batch([start, alert_with_buttons(session, t0 + 1_000, f"{session}-x", "Fehler", [])])
            if support.poll_until(lambda: len(tail.lines) >= 2, 0.5):
                break
        sender.close()
        assert tail.violations, "tail --locale de_CH printed nothing"
        assert {v.get("locale") for v in tail.violations} == {"de-CH"}, [key(v) for v in tail.violations]
    finally:
        tail.kill()
