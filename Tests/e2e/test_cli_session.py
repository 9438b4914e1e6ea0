"""`modalwatch session ID` against a real daemon: the stack it draws matches the events sent, in text and JSON;
the alert timeline, counters, recent events and violations; ended sessions; a journal that has wrapped."""
from __future__ import annotations

import json
import re

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.inspect"


def nav_push(session: str, ts: int, screen: str) -> dict:
    return {"v": 1, "type": "nav.push", "session": session, "ts": ts, "screen": screen}


def popover(session: str, ts: int, id: str) -> dict:
    return {"v": 1, "type": "popover.presented", "session": session, "ts": ts, "id": id}


def nested(session: str) -> list[dict]:
    """Modal, nav push, modal, an alert shown and dismissed, a popover, then an alert left up: a stack four deep."""
    return [
        streams.start(session, APP, T0),
        streams.action(session, T0 + 1_000, "Compose"),
        streams.modal(session, T0 + 1_200, f"{session}-m1", "New message"),
        nav_push(session, T0 + 1_500, "Recipients"),
        streams.action(session, T0 + 3_000, "Add Contact"),
        streams.modal(session, T0 + 3_200, f"{session}-m2", "Contacts"),
        streams.alert(session, T0 + 4_000, f"{session}-a1", "Unable to load contacts"),
        streams.alert_dismissed(session, T0 + 6_000, f"{session}-a1"),
        popover(session, T0 + 7_000, f"{session}-p1"),
        streams.alert(session, T0 + 8_000, f"{session}-a2", "Unable to reach the server"),
    ]


EXPECTED_STACK = [  # (kind, id suffix, ts offset, nav depth, title)
    ("modal", "m1", 1_200, 1, "New message"),
    ("modal", "m2", 3_200, 0, "Contacts"),
    ("popover", "p1", 7_000, 0, None),
    ("alert", "a2", 8_000, 0, "Unable to reach the server"),
]


def session_json(daemon, session_id: str, *extra: str) -> dict:
    return support.cli_json(["session", session_id, "--control", daemon.control, "--json", *extra])


def send(daemon, tmp_path, name: str, events: list[dict]) -> None:
    stream = support.write_stream(tmp_path / f"{name}.ndjson", events)
    before = daemon.status()["events_judged"]
    result = support.run_cli(["send", str(stream), "--events", daemon.events])
    assert result.returncode == 0, result.stderr.decode()
    daemon.wait_status(lambda s: s["events_judged"] >= before + len(events), what=f"{name} judged")


def test_session_shows_the_stack_the_events_built(daemon, tmp_path):
    events = nested("N1")
    send(daemon, tmp_path, "nested", events)
    reply = session_json(daemon, "N1")
    session = reply["session"]
    assert (session["live"], session["app"], session["events"]) == (True, APP, len(events))
    assert (session["alerts"], session["modal_depth"], session["max_depth"], session["stack_depth"]) == (2, 2, 2, 4)
    stack = [(e["kind"], e["id"], e["ts"] - T0, e["nav_depth"], e["title"]) for e in session["stack"]]
    assert stack == [(kind, f"N1-{suffix}", ts, nav, title) for kind, suffix, ts, nav, title in EXPECTED_STACK]
    assert [e["depth"] for e in session["stack"]] == [0, 1, 2, 3]
    assert all(0 <= e["age_ms"] < 60_000 for e in session["stack"]), session["stack"]
    # The alert timeline: both alerts, in order, as sent.
    assert [(r["type"], r["id"], r["ts"] - T0) for r in reply["timeline"]] == [
        ("alert.presented", "N1-a1", 4_000), ("alert.dismissed", "N1-a1", 6_000), ("alert.presented", "N1-a2", 8_000)]
    assert reply["timeline"][0]["title"] == "Unable to load contacts"
    assert (reply["timeline"][1]["button"], reply["timeline"][1]["via"]) == (1, "button")
    # Recent events: the whole stream, oldest first, with the stack depth after each.
    assert [r["type"] for r in reply["events"]] == [e["type"] for e in events]
    assert [r["stack_depth"] for r in reply["events"]] == [0, 0, 1, 1, 1, 2, 3, 2, 3, 4]
    assert reply["events"][0]["app"] == APP and reply["events"][1]["label"] == "Compose"
    assert reply["journal"]["complete"] is True

    # The text: a tree, each level indented one step deeper than the one below it, with ages.
    result = support.run_cli(["session", "N1", "--control", daemon.control])
    assert result.returncode == 0, result.stderr.decode()
    text = result.stdout.decode()
    assert "\x1b[" not in text, "no colour when stdout is not a terminal"
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Presentation stack"))
    tree = lines[start + 1:start + 5]
    indents = []
    for depth, ((kind, suffix, ts, nav, title), line) in enumerate(zip(EXPECTED_STACK, tree)):
        assert re.match(rf"^\s+{depth}\s", line), f"the depth leads the line: {line!r}"
        assert f"{kind} N1-{suffix}" in line, f"{kind} N1-{suffix}: {line!r}\n{text}"
        assert ("└─" in line) == (depth > 0), line
        indents.append(line.index(f"{kind} N1-{suffix}"))
        assert re.search(r"presented (now|\d+ s ago)", line), line
        if title:
            assert title in line, line
        if nav:
            assert f"nav depth {nav}" in line, line
    assert indents == sorted(indents) and len(set(indents)) == 4, f"each level indented deeper: {tree}"
    assert "at the latest event" in tree[3] and "4 s before the latest event" in tree[1], tree
    for heading in ("Alert timeline", "Recent events", "Violations"):
        assert any(line.startswith(heading) for line in lines), (heading, text)
    assert "what is still in the daemon's journal" in text

    # Dismissing the lower modal takes everything above it: the stack is the first modal only.
    send(daemon, tmp_path, "dismiss", [streams.modal_dismissed("N1", T0 + 9_000, "N1-m2")])
    after = session_json(daemon, "N1")["session"]
    assert [(e["kind"], e["id"], e["nav_depth"]) for e in after["stack"]] == [("modal", "N1-m1", 1)]
    assert (after["modal_depth"], after["max_depth"]) == (1, 2)


@pytest.mark.needs_rules("alert-frequency")
def test_session_lists_its_violations_and_marks_the_events_that_raised_them(daemon, tmp_path):
    send(daemon, tmp_path, "alerts", streams.alert_frequency_session("V1", APP) + streams.alert_frequency_session("V2", APP))
    reply = support.poll_until(lambda: r if (r := session_json(daemon, "V1"))["violations"] else None, 5)
    assert reply, "the violation reaches the history store"
    assert [(v["rule"], v["session"], v["subject"]) for v in reply["violations"]] == [("alert-frequency", "V1", "V1-a4")]
    raised = [r for r in reply["events"] if r.get("new_violations")]
    assert [(r["type"], r["id"], r["new_violations"]) for r in raised] == [("alert.presented", "V1-a4", 1)]
    text = support.run_cli(["session", "V1", "--control", daemon.control]).stdout.decode()
    violations = text[text.index("Violations"):]
    assert "alert-frequency" in violations and "V1-a4" in violations and "warning" in violations, text
    assert "V2" not in text, "only this session's"
    # the message in a person's units, and the suggestion on the row under it
    assert "4 alerts within 10 min; the limit is 3" in violations, text
    assert "suggestion: " + reply["violations"][0]["suggestion"][:40] in violations, text


def test_an_ended_session_is_shown_from_the_journal(daemon, tmp_path):
    send(daemon, tmp_path, "ended", streams.quiet_session("E1", APP))
    assert daemon.status()["sessions_live"] == 0
    reply = session_json(daemon, "E1")
    assert reply["session"]["live"] is False and reply["session"]["stack"] == []
    assert reply["session"]["app"] == APP
    assert [r["type"] for r in reply["events"]] == ["session.start", "user.action", "user.action", "session.end"]
    text = support.run_cli(["session", "E1", "--control", daemon.control]).stdout.decode()
    assert "not live" in text and "(empty" in text, text


def test_unknown_session_is_one_line_and_exit_1(daemon):
    result = support.run_cli(["session", "no-such-session", "--control", daemon.control])
    assert result.returncode == 1, result
    stderr = result.stderr.decode().strip()
    assert len(stderr.splitlines()) == 1 and "no-such-session" in stderr and "modalwatch sessions" in stderr, stderr


def test_the_timeline_shows_what_is_still_in_the_ring(daemon, zctx):
    # More events than the journal holds (16,384): the oldest leave it; the newest are exact.
    sender = support.EventSender(zctx, daemon.events)
    sender.warm_up(daemon)
    try:
        sender.event(streams.start("W1", APP, T0))
        sender.event(streams.alert("W1", T0 + 1, "W1-a0", "Unable to sync notes"))
        sender.event(streams.start("W2", APP, T0))
        total = 17_000
        for first in range(0, total, 1000):
            sender.batch({"v": 1, "type": "user.action", "session": "W2", "ts": T0 + 10 + n, "seq": n + 1,
                          "control": "button", "label": f"tap {n}"} for n in range(first, min(first + 1000, total)))
        daemon.wait_status(lambda s: s["events_judged"] >= total + 3, timeout=15, what="17,003 events judged")
    finally:
        sender.close()
    busy = session_json(daemon, "W2", "--events", "3")
    assert busy["journal"]["complete"] is False and busy["journal"]["held"] == busy["journal"]["capacity"] == 16_384
    assert busy["journal"]["events"] == 16_384, "every entry of the ring is W2's"
    assert busy["session"]["events"] == total + 1
    assert [r["label"] for r in busy["events"]] == [f"tap {n}" for n in range(total - 3, total)]
    assert [r["seq"] for r in busy["events"]] == [total - 2, total - 1, total]
    pushed_out = session_json(daemon, "W1")
    assert pushed_out["session"]["live"] is True and pushed_out["events"] == [] and pushed_out["timeline"] == []
    assert pushed_out["session"]["stack"][0]["id"] == "W1-a0", "the stack is the engine's, not the journal's"
    assert pushed_out["session"]["stack"][0]["title"] is None, "the title was only in the journal"
    text = support.run_cli(["session", "W1", "--control", daemon.control]).stdout.decode()
    assert "older events of this session have left the ring" in text, text


def test_long_session_ids_are_found_and_counted_past_the_journals_inline_bytes(daemon, tmp_path):
    # The journal keeps 48 bytes of a session id; a longer one is matched by hash, length and those bytes.
    long_a = "L" * 60 + "-a"
    long_b = "L" * 60 + "-b"
    events = streams.alert_frequency_session(long_a, APP)[:5] + streams.alert_frequency_session(long_b, APP)[:3]
    send(daemon, tmp_path, "long", events)
    listing = support.cli_json(["sessions", "--control", daemon.control, "--json", "--sort", "alerts"])
    assert [(s["id"], s["alerts_window"]) for s in listing["sessions"]] == [(long_a, 2), (long_b, 1)]
    a = session_json(daemon, long_a)
    assert a["journal"]["events"] == 5 and a["journal"]["complete"] is True
    # Same length, same first 48 bytes: only the hash tells the two apart.
    assert [r["type"] for r in a["timeline"]] == ["alert.presented", "alert.dismissed"] * 2, a["timeline"]
    assert [r["ts"] - T0 for r in a["timeline"]] == [10_000, 13_000, 20_000, 23_000]
    assert all(r["id"] == "L" * 48 and r["truncated"] for r in a["timeline"]), "ids past 48 bytes are cut and say so"
    b = session_json(daemon, long_b)
    assert [r["type"] for r in b["events"]] == ["session.start", "alert.presented", "alert.dismissed"]
