"""What the daemon remembers per app is bounded, and one app cannot silence another.

- Apps without a live session past `max_apps` are forgotten (counted: `apps_evicted`), so
  many start/end pairs of distinct apps neither grow the memory linearly nor the snapshot.
- An app's app-wide values (e.g. sheet backgrounds) past `max_app_values` are not kept
  (counted: `app_values_refused`).
- The violation rate limit is per app: a flooding app holds back none of a quiet app's
  violations, and what the flood loses is counted by rule and app.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import e2e_support as support
import streams

T0 = 1_732_290_000_000


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def snapshot_app_count(path: Path) -> int:
    """The app count of the checkpoint a stop wrote (one part): the LEB128 varint that opens the
    part's body (the checkpoint's 16-byte header, the frame's 9, the part's own 32)."""
    data = path.read_bytes()
    assert data[:4] == b"MWCK" and data[25:29] == b"MWSN", "a checkpoint of one binary part"
    value, shift, offset = 0, 0, 57
    while True:
        byte = data[offset]
        value |= (byte & 0x7F) << shift
        offset += 1
        shift += 7
        if byte < 0x80:
            return value


def churn(sender: support.EventSender, first: int, count: int) -> None:
    """`count` apps, each one session: start, a modal with a transition (app-wide state), end."""
    transitions = ("cover_vertical", "flip_horizontal", "cross_dissolve")
    for base in range(first, first + count, 300):
        events = []
        for n in range(base, min(base + 300, first + count)):
            session, ts = f"C{n}", T0 + n
            events += [
                streams.start(session, f"com.example.churn{n}", ts),
                {**streams.modal(session, ts, "m1", "Settings"), "transition": transitions[n % 3]},
                streams.end(session, ts),
            ]
        sender.batch(events)


@pytest.mark.needs_rules("modal-transition-inconsistent")
def test_apps_past_max_apps_are_forgotten_with_bounded_memory_and_snapshot(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("max_apps: 100\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    sender = support.EventSender(zctx, daemon.events)
    try:
        sender.warm_up(daemon)
        # A live app, with app-wide state, seen before the churn: never forgotten.
        sender.batch([streams.start("L", "com.example.live", T0), streams.modal("L", T0, "m1", "Settings")])
        churn(sender, 0, 10_000)
        daemon.wait_status(lambda s: s["sessions_ended"] >= 10_000, timeout=60, what="10,000 apps judged")
        rss_before = rss_kib(daemon.process.pid)
        churn(sender, 10_000, 60_000)
        status = daemon.wait_status(lambda s: s["sessions_ended"] >= 70_000, timeout=180, what="70,000 apps judged")
        rss_after = rss_kib(daemon.process.pid)
        assert status["sessions_live"] == 1
        assert status["apps_known"] <= 100, status["apps_known"]
        assert status["apps_evicted"] == 70_001 - status["apps_known"], (status["apps_evicted"], status["apps_known"])
        # 60,000 more apps, each with app-wide state: a remembered app costs ~1 KiB, 60 MiB in all.
        assert rss_after < rss_before + 16 * 1024, (rss_before, rss_after)
        sender.close()
    finally:
        assert daemon.stop() == 0
    snapshot = tmp_path / "state" / "sessions.checkpoint"
    assert snapshot_app_count(snapshot) <= 100
    # Restored: the live session, and the apps within the bound.
    restarted = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        status = restarted.status()
        assert status["sessions_live"] == 1
        assert 1 <= status["apps_known"] <= 100
    finally:
        assert restarted.stop() == 0


@pytest.mark.needs_rules("sheet-background-inconsistent")
def test_an_apps_values_past_max_app_values_are_not_kept_and_are_counted(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("edition: 2009\nmax_app_values: 16\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    sender = support.EventSender(zctx, daemon.events)
    try:
        sender.warm_up(daemon)
        sender.event(streams.start("S", "com.example.sheets", T0))
        for base in range(0, 4000, 250):
            events = []
            for n in range(base, base + 250):
                ts = T0 + 1 + n
                events += [
                    {"v": 1, "type": "user.action", "session": "S", "ts": ts, "control": "toolbar_button", "label": "Share"},
                    {"v": 1, "type": "sheet.presented", "session": "S", "ts": ts, "id": f"sh{n}", "background": f"bg{n}",
                     "buttons": [{"title": "Mail"}, {"title": "Cancel", "style": "cancel"}]},
                    {"v": 1, "type": "sheet.dismissed", "session": "S", "ts": ts, "id": f"sh{n}", "button": 1, "via": "button"},
                ]
            sender.batch(events)
        status = daemon.wait_status(lambda s: s["events_judged"] >= 12_001, timeout=60, what="4,000 sheets judged")
        assert status["app_values_refused"] > 0
        found = daemon.all_violations({"rule": "sheet-background-inconsistent"})
        # 16 counters (the distinct count and 15 backgrounds), 16 firings: at most 16 violations, not 3,999.
        assert 0 < len(found) <= 16, len(found)
        sender.close()
    finally:
        assert daemon.stop() == 0


@pytest.mark.needs_rules("alert-error-word")
def test_a_flooding_app_holds_back_none_of_a_quiet_apps_violations(zctx, tmp_path):
    # The flood: 1,500 alerts with "Error" in one second of event time, each its own id.
    flood = [streams.start("F", "com.example.flood", T0)]
    for n in range(1500):
        ts = T0 + n * 1000 // 1500
        flood += [streams.alert("F", ts, f"f{n}", "Error"), streams.alert_dismissed("F", ts, f"f{n}")]
    # The quiet app: 40 such alerts in the same second, after the flood.
    quiet = [streams.start("Q", "com.example.quiet", T0 + 500)]
    for n in range(40):
        ts = T0 + 600 + n
        quiet += [streams.alert("Q", ts, f"q{n}", "Error"), streams.alert_dismissed("Q", ts, f"q{n}")]
    code, expected, stderr = support.check_json(support.write_stream(tmp_path / "quiet.ndjson", quiet), "--edition", "2009")
    assert code == 1 and expected, stderr
    assert sum(v["rule"] == "alert-error-word" for v in expected) == 40

    daemon = support.Daemon(zctx, tmp_path, extra_args=["--edition", "2009"]).start()
    sender = support.EventSender(zctx, daemon.events)
    sub = support.Subscriber(zctx, daemon.publish, prefixes=("violation/com.example.quiet/",))
    try:
        sender.warm_up(daemon)
        sub.warm_up(sender)
        for base in range(0, len(flood), 1000):
            sender.batch(flood[base:base + 1000])
        sender.batch(quiet)
        status = daemon.wait_status(lambda s: s["events_judged"] >= len(flood) + len(quiet), timeout=30, what="both judged")
        got = sub.collect(lambda m: len(m) >= len(expected), timeout=10)
        published = sorted((json.dumps(support.without_observed(m.body), sort_keys=True) for m in got))
        assert published == sorted(json.dumps(support.without_observed(v), sort_keys=True) for v in expected)
        # The flood's losses: counted, by rule and by app, and none of them the quiet app's.
        by_rule = status["violations_rate_limited_by_rule"]
        assert by_rule.get("alert-error-word") == 500, by_rule
        assert status["violations_rate_limited"] == sum(by_rule.values())
        assert status["violations_rate_limited_by_app"] == {"com.example.flood": status["violations_rate_limited"]}
        sender.close()
        sub.close()
    finally:
        assert daemon.stop() == 0
