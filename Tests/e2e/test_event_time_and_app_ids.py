"""Event times and app ids at the decoder's edge (events.md, spec-decisions.md): a `ts` past the end
of year 9999 and an `app` that would break its topic are rejected `bad_field`, counted and explained,
and the daemon goes on; times an older daemon stored are read without a trap or an unbounded
allocation (`report` on a history holding one)."""
from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
from pathlib import Path

import e2e_support as support
import streams
from streams import T0

TS_MAX_ACCEPTED = 253_402_300_799_999   # 9999-12-31 23:59:59.999 UTC
INT64_MAX = 2**63 - 1


def test_a_ts_past_year_9999_is_bad_field_and_the_session_reply_survives(daemon, sender, subscriber):
    # The sequence that trapped on an overflow: a session, an alert at 2^63-1, then `session`.
    base = daemon.status()
    sender.event(streams.start("X", "com.example.mail", T0))
    sender.event(streams.alert("X", INT64_MAX, "a1", "Error"))
    support.poll_until(lambda: support.delta(daemon.status(), base, "events_received") >= 2, timeout=5)
    result = support.run_cli(["session", "X", "--control", daemon.control])
    assert daemon.alive, f"the daemon died on `session X`:\n{daemon.log()[-2000:]}"
    assert result.returncode == 0, result.stderr.decode()
    assert "X" in result.stdout.decode()
    # Every other reader of the session's times answers too.
    assert support.run_cli(["sessions", "--control", daemon.control]).returncode == 0
    assert daemon.request({"v": 1, "cmd": "session", "id": "X"})["ok"] is True
    assert daemon.alive

    after = daemon.status()
    assert support.delta(after, base, "events_rejected") == 1
    assert support.reasons_delta(after, base).get("bad_field") == 1
    messages = subscriber.collect(lambda ms: any(m.body["reason"] == "bad_field" for m in subscriber.diagnostics(ms)))
    detail = next(m.body["detail"] for m in subscriber.diagnostics(messages) if m.body["reason"] == "bad_field")
    assert "'ts'" in detail and "253402300799999" in detail and "9999" in detail, detail


def test_the_last_ms_of_year_9999_is_accepted_and_a_negative_ts_is_not(daemon, sender, subscriber):
    base = daemon.status()
    sender.event(streams.start("EDGE", "com.example.mail", TS_MAX_ACCEPTED))
    sender.event(streams.action("EDGE", TS_MAX_ACCEPTED + 1))
    sender.event(streams.action("EDGE", -1))
    after = daemon.wait_status(lambda st: support.delta(st, base, "events_received") >= 3, what="the stream")
    assert support.delta(after, base, "events_judged") == 1
    assert support.reasons_delta(after, base).get("bad_field") == 2
    reply = daemon.request({"v": 1, "cmd": "session", "id": "EDGE"})
    assert reply["ok"] is True and reply["session"]["last_ts"] == TS_MAX_ACCEPTED
    assert support.run_cli(["session", "EDGE", "--control", daemon.control]).returncode == 0
    assert daemon.alive


def test_an_app_id_with_a_slash_cannot_publish_under_another_apps_prefix(zctx, daemon, sender):
    victim = support.Subscriber(zctx, daemon.publish, prefixes=("violation/com.victim/",))
    watcher = support.Subscriber(zctx, daemon.publish)
    try:
        watcher.warm_up(sender)
        victim_probe = [streams.start("V0", "com.victim", T0), streams.alert("V0", T0 + 10, "a0", "Error")]
        sender.events(victim_probe)
        # The victim's own violation arrives: the subscription works.
        own = victim.collect(lambda ms: len(ms) >= 1)
        assert own and all(m.body["app"] == "com.victim" for m in own)

        sender.warm_up(daemon)  # `status` counts the probes and the victim's events before the base is read
        base = daemon.status()
        spoof = "com.victim/alert-title-single-word/x"
        bad_apps = [spoof, "com.victim/", "com.x y", "com.a\u0007b", "com.a\u0085b", "/"]
        for i, app in enumerate(bad_apps):
            sender.events([streams.start(f"S{i}", app, T0 + 100), streams.alert(f"S{i}", T0 + 200, "a1", "Error")])
        after = daemon.wait_status(
            lambda st: support.delta(st, base, "events_received") >= 2 * len(bad_apps), what="the spoofing stream")
        # Each start is rejected; each alert belongs to no session (it starts one with app "-").
        assert support.reasons_delta(after, base).get("bad_field") == len(bad_apps)
        diags = watcher.collect(
            lambda ms: sum(m.body["reason"] == "bad_field" for m in watcher.diagnostics(ms)) >= len(bad_apps))
        details = [m.body["detail"] for m in watcher.diagnostics(diags) if m.body["reason"] == "bad_field"]
        assert len(details) >= len(bad_apps)
        assert all("'app'" in d and "'/'" in d for d in details), details
        received = victim.collect(lambda ms: False, timeout=1.5)
        spoofed = [(m.topic, m.body.get("app")) for m in received if m.body.get("app") != "com.victim"]
        assert spoofed == [], spoofed
        assert not any(m.topic.startswith("violation/com.victim/") and m.body["app"] != "com.victim"
                       for m in watcher.violations(diags))
        status = daemon.status()
        assert status["rejected_by_reason"]["bad_field"] >= len(bad_apps)
        assert daemon.alive
    finally:
        victim.close()
        watcher.close()


def _limit_memory(limit_bytes: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    return apply


def test_report_on_a_history_holding_extreme_times_ends_in_bounded_memory(daemon, sender, subscriber, tmp_path: Path):
    # A history with violations, as the daemon writes it (its current schema) ...
    sender.events(streams.alert_frequency_session("H1", "com.example.mail"))
    subscriber.collect(lambda ms: len(subscriber.violations(ms)) >= 1)
    state = daemon.workdir / "state"
    support.poll_until(lambda: daemon.status(fresh=False)["violations_stored"] >= 1
                       and daemon.status()["violations_stored"] == daemon.status()["violations_found"], timeout=5)
    # ... then violations an older daemon could have stored: times far in the future and before 1970.
    db = sqlite3.connect(state / "history.sqlite", timeout=10)
    try:
        newest = support.history_violations(state, db)[-1]
        extreme = []
        for ts in (10**15, 10**17, INT64_MAX, -(2**63), -1):
            body = json.loads(newest["json"])
            body["ts"], body["observed"] = ts, ts
            extreme.append({**newest, "id": os.urandom(16).hex(), "ts": ts, "observed": ts,
                            "json": json.dumps(body, ensure_ascii=False, separators=(",", ":"))})
        support.insert_violations(db, extreme)
        db.commit()
        rows = len(support.history_violations(state, db))
    finally:
        db.close()
    output = tmp_path / "report.html"
    result = subprocess.run(
        [str(support.cli_path()), "report", "--state-dir", str(state), "--output", str(output)],
        capture_output=True, timeout=60, preexec_fn=_limit_memory(2 << 30))
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    html = output.read_text()
    assert "9999-12-31" in html  # the far-future rows are shown at the end of the accepted range
    assert html.count("<rect") < 5000, "the time axis must have a bounded number of buckets"
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak_kib < 400 * 1024, f"report used {peak_kib} KiB for {rows} rows"
    # The daemon's own readers of the same history: `violations` and a report through it.
    assert support.run_cli(["violations", "--limit", "50", "--control", daemon.control]).returncode == 0
    result = support.run_cli(["report", "--control", daemon.control, "--output", str(tmp_path / "d.html")], timeout=60)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    assert daemon.alive
