"""Bad input: rejected, counted by reason, reported on diag/, and never at the cost of the good events around it."""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"
JUNK_APP = "com.garbage"
TS = str(T0).encode()


def padded_event(size: int) -> bytes:
    """A well-formed event of about `size` bytes (the padding is an unknown field, which is ignored)."""
    head = b'{"v":1,"type":"user.action","session":"JUNK","ts":' + TS + b',"pad":"'
    return head + b"x" * (size - len(head) - 2) + b'"}'


# (what, message: one payload or a list of frames, reason it is rejected for; None: accepted and ignored)
GARBAGE: list[tuple[str, bytes | list[bytes], str | None]] = [
    ("invalid UTF-8", b'{"v":1,"type":"user.action","session":"JUNK","ts":' + TS + b',"label":"\xc3\x28"}', "malformed_json"),
    ("truncated JSON", b'{"v":1,"type":"session.start","session":"JUNK","ts":17322', "malformed_json"),
    ("not an object", b'[{"v":1,"type":"session.start","session":"JUNK","ts":1}]', "malformed_json"),
    ("ts of the wrong type", b'{"v":1,"app":"com.garbage","type":"session.start","session":"JUNK","ts":"yesterday"}', "bad_field"),
    ("buttons of the wrong type",
     b'{"v":1,"app":"com.garbage","type":"alert.presented","session":"JUNK","ts":' + TS + b',"id":"x","buttons":"OK"}', "bad_field"),
    ("missing id", b'{"v":1,"app":"com.garbage","type":"alert.presented","session":"JUNK","ts":' + TS + b'}', "missing_field"),
    ("300 KiB message", padded_event(300 * 1024), "too_large"),
    ("70 KiB event", padded_event(70 * 1024), "too_large"),
    ("three frames", [b"ui/com.garbage/JUNK3",
                      b'{"v":1,"type":"session.start","session":"JUNK3","ts":' + TS + b',"app":"com.garbage"}', b"extra"],
     "malformed_json"),
    ("empty frame", b"", "malformed_json"),
    ("topic and an empty payload", [b"ui/com.garbage/JUNK", b""], "malformed_json"),
    ("unknown type", b'{"v":1,"type":"window.resized","session":"JUNK","ts":' + TS + b'}', None),
]


def send_good_and_garbage(sender: support.EventSender) -> list[dict]:
    """Good events of two sessions with one piece of garbage after each; returns the good events."""
    good = streams.alert_frequency_session("GOOD", APP, T0) + streams.quiet_session("GOOD2", APP, T0 + 100)
    assert len(good) >= len(GARBAGE)
    for event, junk in itertools.zip_longest(good, GARBAGE):
        if event is not None:
            sender.event(event)
        if junk is not None:
            sender.send(junk[1])
    return good


def test_garbage_is_rejected_counted_and_reported(daemon, sender, subscriber):
    base = daemon.status()
    good = send_good_and_garbage(sender)
    expected = Counter(reason for _, _, reason in GARBAGE if reason)
    rejected = sum(expected.values())

    after = daemon.wait_status(
        lambda s: support.delta(s, base, "events_received") >= len(good) + len(GARBAGE),
        what="every good event and every piece of garbage received")
    assert support.delta(after, base, "events_received") == len(good) + len(GARBAGE)
    assert support.delta(after, base, "events_judged") == len(good), "every good event around the garbage is judged"
    assert support.delta(after, base, "events_rejected") == rejected
    assert support.reasons_delta(after, base) == dict(expected)
    assert support.delta(after, base, "events_unknown_type") == 1
    assert support.delta(after, base, "sessions_started") == 2, "the payload of a three-frame message is not judged"
    assert after["sessions_live"] == 1  # GOOD is open, GOOD2 ended, JUNK/JUNK3 never started

    messages = subscriber.collect(lambda ms: len(subscriber.diagnostics(ms)) >= rejected)
    diagnostics = subscriber.diagnostics(messages)
    for message in diagnostics:
        support.assert_diagnostic_shape(message.topic, message.body)
    assert Counter(m.body["reason"] for m in diagnostics) == expected
    by_topic = Counter(m.topic for m in diagnostics)
    assert by_topic["diag/com.garbage/bad_field"] == 2, by_topic
    assert by_topic["diag/com.garbage/missing_field"] == 1, by_topic
    assert by_topic["diag/-/too_large"] == 2, by_topic
    final = daemon.wait_status(lambda s: support.delta(s, base, "diagnostics_published") >= rejected,
                               what="the diagnostics counted as published")
    assert support.delta(final, base, "diagnostics_published") == rejected
    assert support.delta(final, base, "diagnostics_suppressed") == 0
    assert daemon.alive


@pytest.mark.needs_rules("alert-frequency")
def test_good_events_around_garbage_still_yield_violations(daemon, sender, subscriber):
    send_good_and_garbage(sender)
    messages = subscriber.collect(
        lambda ms: any(m.body["rule"] == "alert-frequency" for m in subscriber.violations(ms)))
    keys = [streams.key(m.body) for m in subscriber.violations(messages) if m.body["rule"] == "alert-frequency"]
    assert keys == [("alert-frequency", APP, "GOOD", "GOOD-a4")]


def test_every_truncation_of_an_event_is_rejected(daemon, sender):
    event = support.encode(streams.alert("CUT", T0, "cut-a1", "Unable to sync notes"))
    base = daemon.status()
    sender.events([streams.start("CUT", APP, T0 - 1)])
    for end in range(1, len(event)):
        sender.send(event[:end])
    sender.send(event)
    after = daemon.wait_status(
        lambda s: support.delta(s, base, "events_received") >= len(event) + 1, what="every truncation received")
    assert support.reasons_delta(after, base) == {"malformed_json": len(event) - 1}
    assert support.delta(after, base, "events_judged") == 2
    assert daemon.alive


def test_random_bytes_flood_is_survived_and_rate_limited(daemon, sender):
    rng = random.Random(20241122)
    base = daemon.status()
    for _ in range(2000):
        sender.send(bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 200))))
    good = streams.quiet_session("AFTER", APP, T0)
    sender.events(good)
    after = daemon.wait_status(
        lambda s: support.delta(s, base, "messages_received") >= 2000 + len(good), what="the flood received")
    assert support.delta(after, base, "events_judged") == len(good)
    assert support.delta(after, base, "sessions_ended") == 1
    assert support.delta(after, base, "events_rejected") >= 2000
    # At most 10 diagnostics a second per app: nearly all of the flood is counted, not published.
    assert support.delta(after, base, "diagnostics_suppressed") > 0
    assert support.delta(after, base, "diagnostics_published") < 100
    assert daemon.alive


def test_message_over_the_socket_cap_costs_only_a_reconnect(daemon, sender):
    # Over the ingest socket's own 1 MiB cap, libzmq drops the connection; the PUB reconnects by itself.
    base = daemon.status()
    sender.send(padded_event(2 * 1024 * 1024))
    sender.warm_up(daemon, timeout=5.0)  # events flow again
    good = streams.quiet_session("LATER", APP, T0)
    sender.events(good)
    after = daemon.wait_status(
        lambda s: support.delta(s, base, "events_judged") >= len(good), what="events after the reconnect judged")
    assert support.delta(after, base, "sessions_ended") == 1
    assert daemon.alive
