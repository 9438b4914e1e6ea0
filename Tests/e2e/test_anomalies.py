"""Stream anomalies (events.md "Ordering and time", "The presentation stack") and the configuration file."""
from __future__ import annotations

import subprocess
from collections import Counter

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"


def test_stream_anomalies_are_counted_and_reported(daemon, sender, subscriber):
    s = "ANOM"
    events = [
        {**streams.start(s, APP, T0), "seq": 1},
        {**streams.action(s, T0 + 1000), "seq": 2},
        {**streams.action(s, T0 + 1100), "seq": 2},             # duplicate: dropped
        {**streams.action(s, T0 + 1200), "seq": 5},             # gap: 3 and 4 lost
        {**streams.action(s, T0 + 500), "seq": 6},              # out of order: judged at T0 + 1200
        {**streams.alert_dismissed(s, T0 + 1300, "never-shown"), "seq": 7},  # unknown dismissal
    ]
    base = daemon.status()
    sender.events(events)
    after = daemon.wait_status(lambda s_: support.delta(s_, base, "events_received") >= len(events), what="the stream")
    assert support.delta(after, base, "duplicates") == 1
    assert support.delta(after, base, "events_lost") == 2
    assert support.delta(after, base, "out_of_order") == 1
    assert support.delta(after, base, "unknown_dismissals") == 1
    assert support.delta(after, base, "events_rejected") == 0, "anomalies are not rejections"
    messages = subscriber.collect(lambda ms: len(subscriber.diagnostics(ms)) >= 4)
    diagnostics = subscriber.diagnostics(messages)
    for message in diagnostics:
        support.assert_diagnostic_shape(message.topic, message.body)
        assert message.body["app"] == APP and message.body["session"] == s, message.body
    assert Counter(m.body["reason"] for m in diagnostics) == {"duplicate": 1, "gap": 1, "out_of_order": 1, "unknown_dismiss": 1}


def test_max_sessions_from_the_config_evicts_the_least_recent(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("max_sessions: 2\nsession_idle_timeout: 30m\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["diag/"])
        subscriber.warm_up(sender)
        base = daemon.status()
        sender.events([streams.start(f"E{n}", APP, T0 + n) for n in range(3)])
        after = daemon.wait_status(lambda s: support.delta(s, base, "sessions_started") >= 3, what="three sessions")
        assert after["sessions_live"] == 2
        assert support.delta(after, base, "sessions_evicted") == 1
        evicted = [m.body for m in subscriber.diagnostics(subscriber.collect(
            lambda ms: any(m.body["reason"] == "session_evicted" for m in ms)))]
        assert [(d["reason"], d["session"]) for d in evicted] == [("session_evicted", "E0")]
        assert daemon.request({"cmd": "session", "id": "E0"})["ok"] is False
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_bad_config_is_refused_with_file_line_and_key(tmp_path):
    config = tmp_path / "bad.yaml"
    config.write_text("edition: current\nmax_sessionz: 5\n")
    result = subprocess.run([str(support.daemon_path()), "--config", str(config), "--state-dir", str(tmp_path)],
                            capture_output=True, timeout=10)
    assert result.returncode == 1
    stderr = result.stderr.decode()
    assert "bad.yaml" in stderr and "max_sessionz" in stderr and ":2" in stderr, stderr


@pytest.mark.needs_rules("alert-frequency")
def test_config_rule_parameters_apply(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("rules:\n  alert-frequency: { limit: 1, window: 10m, severity: error }\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/"])
        subscriber.warm_up(sender)
        sender.events(streams.alert_frequency_session("CFG", APP))
        got = subscriber.collect(lambda ms: any(m.body["rule"] == "alert-frequency" for m in ms))
        hits = [m.body for m in got if m.body["rule"] == "alert-frequency"]
        assert [(h["subject"], h["severity"]) for h in hits] == [("CFG-a2", "error")]
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_a_device_clock_ahead_does_not_release_other_sessions(daemon, sender):
    base = daemon.status()
    sender.events([streams.start("EARLY", APP, T0), streams.action("EARLY", T0 + 1000)])
    daemon.wait_status(lambda s: s["sessions_live"] == 1, what="the first session")
    # Another device whose clock is two hours ahead (ts is the device's clock, events.md).
    sender.events([streams.start("AHEAD", "com.example.notes", T0 + 2 * 3600 * 1000)])
    daemon.wait_status(lambda s: support.delta(s, base, "sessions_started") == 2, what="the second session")
    # The daemon releases idle sessions on its 200 ms tick: give it a few.
    support.poll_until(lambda: daemon.status(fresh=False)["sessions_expired"] > base["sessions_expired"], 1.0)
    after = daemon.status()
    assert after["sessions_expired"] == base["sessions_expired"]
    assert after["sessions_live"] == 2
