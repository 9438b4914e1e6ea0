"""Events in, violations out: single events, NDJSON batches, and `modalwatch check` giving the same verdicts."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"
NOTES = "com.example.notes"


def two_sessions() -> list[dict]:
    """alert-frequency in one session, modal-depth in another, interleaved by time."""
    alerts = streams.alert_frequency_session("S-alerts", APP, T0)
    modals = streams.modal_depth_session("S-modals", NOTES, T0 + 500)
    return sorted(alerts + modals, key=lambda e: e["ts"])


def fifty_event_batch() -> list[dict]:
    """Five sessions of ten events each (alert-frequency fires in every one), interleaved."""
    per_session = [
        streams.alert_frequency_session(f"B{n}", APP if n % 2 else NOTES, T0 + n * 100, end_session=n < 3)
        + ([] if n < 3 else [streams.action(f"B{n}", T0 + n * 100 + 55_000)])
        for n in range(5)
    ]
    events = sorted((e for session in per_session for e in session), key=lambda e: (e["ts"], e["session"]))
    assert len(events) == 50
    return events


def write_stream(path: Path, events: list[dict]) -> Path:
    path.write_bytes(b"".join(support.encode(e) + b"\n" for e in events))
    return path


def wait_judged(daemon: support.Daemon, base: dict, count: int) -> dict:
    return daemon.wait_status(
        lambda s: support.delta(s, base, "events_judged") >= count, what=f"{count} events judged")


def test_single_events_are_judged(daemon, sender):
    events = two_sessions()
    base = daemon.status()
    for n, event in enumerate(events):
        # Both framings: one frame, and topic + payload.
        sender.event(event, topic=f"ui/{APP}/{event['session']}" if n % 2 else None)
    after = wait_judged(daemon, base, len(events))
    assert support.delta(after, base, "events_received") == len(events)
    assert support.delta(after, base, "events_accepted") == len(events)
    assert support.delta(after, base, "events_judged") == len(events)
    assert support.delta(after, base, "events_rejected") == 0
    assert support.reasons_delta(after, base) == {}
    assert after["sessions_live"] == 2
    assert support.delta(after, base, "sessions_started") == 2


@pytest.mark.needs_rules("alert-frequency", "modal-depth")
def test_single_events_yield_violations_as_check_does(daemon, sender, subscriber, tmp_path):
    events = two_sessions()
    for event in events:
        sender.event(event)
    wanted = {("alert-frequency", APP, "S-alerts", "S-alerts-a4"), ("modal-depth", NOTES, "S-modals", "S-modals-m3")}
    got = subscriber.collect(lambda ms: wanted <= {streams.key(m.body) for m in subscriber.violations(ms)})
    violations = subscriber.violations(got)
    for message in violations:
        support.assert_violation_shape(message.topic, message.body)
    by_rule = {}
    for message in violations:
        by_rule.setdefault(message.body["rule"], []).append(message.body)
    assert [streams.key(v) for v in by_rule.get("alert-frequency", [])] == [("alert-frequency", APP, "S-alerts", "S-alerts-a4")]
    assert [streams.key(v) for v in by_rule.get("modal-depth", [])] == [("modal-depth", NOTES, "S-modals", "S-modals-m3")]
    frequency = by_rule["alert-frequency"][0]
    assert frequency["severity"] == "warning" and frequency["edition"] == "current"
    assert frequency["ts"] == T0 + 40_000
    assert by_rule["modal-depth"][0]["severity"] == "warning"

    status = daemon.wait_status(lambda s: s["violations_published"] >= len(violations), what="violations counted")
    assert status["violations_published"] == len(violations), "every published violation reached the subscriber once"
    assert status["messages_dropped"] == 0

    code, offline, stderr = support.check_json(write_stream(tmp_path / "stream.ndjson", events))
    assert code == 1, f"check exits 1 on warnings (default --fail-on warning): {stderr}"
    assert [support.without_observed(v) for v in offline] == [support.without_observed(m.body) for m in violations]


def test_fifty_event_batch_is_judged_event_by_event(daemon, sender):
    events = fifty_event_batch()
    base = daemon.status()
    sender.batch(events)
    after = wait_judged(daemon, base, 50)
    assert support.delta(after, base, "messages_received") == 1
    assert support.delta(after, base, "events_received") == 50
    assert support.delta(after, base, "events_judged") == 50
    assert support.delta(after, base, "events_rejected") == 0
    assert support.delta(after, base, "sessions_started") == 5
    assert support.delta(after, base, "sessions_ended") == 3
    assert after["sessions_live"] == 2


@pytest.mark.needs_rules("alert-frequency")
def test_fifty_event_batch_yields_violations_as_check_does(daemon, sender, subscriber, tmp_path):
    events = fifty_event_batch()
    sender.batch(events)
    wanted = {("alert-frequency", APP if n % 2 else NOTES, f"B{n}", f"B{n}-a4") for n in range(5)}
    got = subscriber.collect(lambda ms: wanted <= {streams.key(m.body) for m in subscriber.violations(ms)})
    violations = subscriber.violations(got)
    frequency = sorted(streams.key(m.body) for m in violations if m.body["rule"] == "alert-frequency")
    assert frequency == sorted(wanted)
    for message in violations:
        support.assert_violation_shape(message.topic, message.body)

    code, offline, stderr = support.check_json(write_stream(tmp_path / "batch.ndjson", events))
    assert code == 1, stderr
    assert [support.without_observed(v) for v in offline] == [support.without_observed(m.body) for m in violations]


def test_batch_with_trailing_newline_and_crlf(daemon, sender):
    events = streams.quiet_session("NL", APP)
    base = daemon.status()
    sender.send(b"\r\n".join(support.encode(e) for e in events) + b"\n")
    after = wait_judged(daemon, base, len(events))
    assert support.delta(after, base, "events_rejected") == 0, support.reasons_delta(after, base)
    assert support.delta(after, base, "events_received") == len(events)


def test_bad_line_in_batch_rejects_only_itself(daemon, sender):
    good = streams.quiet_session("MIX", APP)
    payload = b"\n".join([
        support.encode(good[0]), b'{"v":1,"type":"user.action","session":"MIX",', support.encode(good[1]),
        b'{"v":1,"type":"alert.presented","session":"MIX","ts":5}', support.encode(good[2]), support.encode(good[3]),
    ])
    base = daemon.status()
    sender.send(payload)
    after = daemon.wait_status(
        lambda s: support.delta(s, base, "events_received") >= 6, what="six events received")
    assert support.delta(after, base, "events_judged") == 4
    assert support.reasons_delta(after, base) == {"malformed_json": 1, "missing_field": 1}
    assert support.delta(after, base, "sessions_ended") == 1


def test_batch_over_1024_events_rejects_the_excess(daemon, sender):
    session = [streams.start("BIG", APP, T0)] + [streams.action("BIG", T0 + n) for n in range(1, 1025)]
    assert len(session) == 1025
    base = daemon.status()
    sender.batch(session)
    after = daemon.wait_status(
        lambda s: support.delta(s, base, "events_received") >= 1025, what="1025 events received")
    assert support.delta(after, base, "events_judged") == 1024
    assert support.reasons_delta(after, base) == {"too_large": 1}


def test_sessions_and_session_commands(daemon, sender):
    events = streams.modal_depth_session("ST", NOTES)[:7]  # three modals up, none dismissed
    base = daemon.status()
    sender.events(events)
    wait_judged(daemon, base, len(events))
    sessions = daemon.request({"cmd": "sessions", "sort": "depth"})
    assert sessions["ok"] is True and sessions["total"] == 1
    listed = sessions["sessions"][0]
    assert (listed["id"], listed["app"], listed["modal_depth"], listed["max_depth"]) == ("ST", NOTES, 3, 3)
    one = daemon.request({"cmd": "session", "id": "ST"})
    assert one["ok"] is True
    assert [(e["kind"], e["id"]) for e in one["session"]["stack"]] == [("modal", "ST-m1"), ("modal", "ST-m2"), ("modal", "ST-m3")]
    missing = daemon.request({"cmd": "session", "id": "nope"})
    assert missing["ok"] is False and missing["error"]


def test_modalwatch_send_delivers_a_file(daemon, tmp_path):
    events = two_sessions()
    stream = write_stream(tmp_path / "send.ndjson", events)
    base = daemon.status()
    result = support.run_cli(["send", str(stream), "--events", daemon.events, "--batch", "7"])
    assert result.returncode == 0, result.stderr.decode()
    after = wait_judged(daemon, base, len(events))
    assert support.delta(after, base, "events_received") == len(events)
    assert support.delta(after, base, "events_rejected") == 0


def test_ipc_endpoints(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path, ipc=True).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        events = two_sessions()
        base = daemon.status()
        sender.events(events)
        after = wait_judged(daemon, base, len(events))
        assert after["endpoints"]["control"] == [daemon.control]
        result = support.run_cli(["status", "--control", daemon.control, "--json"])
        assert result.returncode == 0 and json.loads(result.stdout)["sessions_live"] == 2
        sender.close()
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_events_connect_to_a_binding_publisher(zctx, tmp_path):
    import zmq
    publisher = zctx.socket(zmq.PUB)
    publisher.linger = 0
    port = publisher.bind_to_random_port("tcp://127.0.0.1")
    endpoint = f"tcp://127.0.0.1:{port}"
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--events-connect", endpoint]).start()
    try:
        assert daemon.status()["endpoints"]["events_connect"] == [endpoint]
        base = daemon.status()

        def probe_counted() -> bool:
            publisher.send(support.UNKNOWN_TYPE_PROBE)
            return support.poll_until(lambda: daemon.status(fresh=False)["events_unknown_type"] > base["events_unknown_type"], 0.2)

        assert support.poll_until(probe_counted, 5.0, interval=0), "the daemon's connected SUB never received"
        events = streams.quiet_session("CONN", APP)
        before = daemon.status()
        for event in events:
            publisher.send(support.encode(event))
        wait_judged(daemon, before, len(events))
    finally:
        assert daemon.stop() == 0, daemon.log()
        publisher.close()


def test_subscribe_prefixes_from_the_config_filter_topics(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text('subscribe: ["ui/com.example.mail/"]\n')
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        wanted = streams.quiet_session("WANTED", APP)
        other = streams.quiet_session("OTHER", NOTES)

        def probe_counted() -> bool:
            before = daemon.status()["events_unknown_type"]
            sender.send([b"ui/com.example.mail/probe", support.UNKNOWN_TYPE_PROBE])
            return support.poll_until(lambda: daemon.status(fresh=False)["events_unknown_type"] > before, 0.2)

        assert support.poll_until(probe_counted, 5.0, interval=0)
        base = daemon.status()
        for w, o in zip(wanted, other):
            sender.event(o, topic="ui/com.example.notes/OTHER")
            sender.event(o)  # one frame: the payload itself does not match the prefix
            sender.event(w, topic="ui/com.example.mail/WANTED")
        after = wait_judged(daemon, base, len(wanted))
        assert support.delta(after, base, "events_received") == len(wanted), "filtered messages never reach the daemon"
        assert daemon.request({"cmd": "session", "id": "OTHER"})["ok"] is False
        sender.close()
    finally:
        assert daemon.stop() == 0, daemon.log()
