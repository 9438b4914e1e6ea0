"""Input gaps: event times at the edge of the accepted range (the end of year 9999; past it, up to
2^63-1, `bad_field`), and the topic frame's 1 KiB limit (events.md)."""
from __future__ import annotations

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"
TS_MAX = 253_402_300_799_999  # 9999-12-31 23:59:59.999 UTC, the latest accepted
INT64_MAX = 2**63 - 1


def test_ts_at_the_accepted_limit_then_a_normal_ts_is_out_of_order_not_a_new_session(daemon, sender, subscriber):
    s = "EDGE"
    events = [
        {**streams.start(s, APP, TS_MAX), "seq": 1},
        {**streams.action(s, T0), "seq": 2},            # before the latest: out of order, judged at TS_MAX
        {**streams.action(s, T0 + 1000), "seq": 3},     # still before: out of order again
    ]
    base = daemon.status()
    sender.events(events)
    after = daemon.wait_status(lambda st: support.delta(st, base, "events_received") >= len(events), what="the stream")
    assert support.delta(after, base, "out_of_order") == 2
    assert support.delta(after, base, "sessions_started") == 1, "the session must not restart on a wrapped idle check"
    assert support.delta(after, base, "events_judged") == 3
    assert support.delta(after, base, "events_rejected") == 0
    messages = subscriber.collect(lambda ms: sum(m.body["reason"] == "out_of_order" for m in subscriber.diagnostics(ms)) >= 2)
    details = [m.body["detail"] for m in subscriber.diagnostics(messages) if m.body["reason"] == "out_of_order"]
    assert all(str(TS_MAX) in d for d in details), details
    assert daemon.alive


def test_ts_at_the_int64_limit_is_bad_field(daemon, sender, subscriber):
    base = daemon.status()
    sender.event({**streams.start("EDGE64", APP, INT64_MAX), "seq": 1})
    after = daemon.wait_status(lambda st: support.delta(st, base, "events_received") >= 1, what="the event")
    assert support.reasons_delta(after, base) == {"bad_field": 1}
    assert support.delta(after, base, "sessions_started") == 0
    assert daemon.alive


def test_a_topic_frame_over_1_kib_is_rejected_too_large_and_reported(daemon, sender, subscriber):
    event = support.encode(streams.start("TOPIC", APP, T0))
    base = daemon.status()
    sender.send([b"ui/" + b"x" * 1021, event])            # exactly 1 KiB: accepted
    sender.send([b"ui/" + b"x" * 1022, event])            # 1 KiB + 1: too_large
    sender.send([b"ui/" + b"y" * (600 * 1024), event])    # the adversarial 600 KiB topic
    after = daemon.wait_status(lambda st: support.delta(st, base, "messages_received") >= 3, what="three messages")
    assert support.reasons_delta(after, base) == {"too_large": 2}
    assert support.delta(after, base, "topics_too_large") == 2
    assert support.delta(after, base, "events_judged") == 1
    messages = subscriber.collect(lambda ms: len(subscriber.diagnostics(ms)) >= 2)
    too_large = [m for m in subscriber.diagnostics(messages) if m.body["reason"] == "too_large"]
    assert [m.topic for m in too_large] == ["diag/-/too_large"] * 2
    assert "topic frame of 1025 bytes" in too_large[0].body["detail"], too_large[0].body
    assert "\n" not in too_large[1].body["detail"]
