"""The ingest thread only ingests (issue 12): while a steady stream flows, every control request at its
largest allowed size (status, sessions, session, rules, violations, reload) is answered, and nothing of the
stream is lost: every event received, every violation published and stored. `status` reports the longest
any request held the ingest thread (`control_hold_max_us`, and which request)."""
from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
import zmq

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"
SESSIONS = 1200          # one alert-frequency violation each
EVENTS_PER_SESSION = len(streams.alert_frequency_session("x", APP))



@pytest.mark.needs_rules("alert-frequency")
def test_every_control_request_at_its_largest_during_a_stream_loses_nothing(zctx, tmp_path):
    # A history of 20,000 rows first, so that `violations` and `session` have big answers to give.
    first = support.Daemon(zctx, tmp_path, ipc=True).start()
    try:
        sender = support.EventSender(zctx, first.events)
        sender.warm_up(first)
        for n in range(50):
            sender.batch(streams.alert_frequency_session(f"H{n}", APP, T0 + n))
        first.wait_status(lambda s: s["violations_stored"] == 50, what="a history")
        sender.close()
    finally:
        assert first.stop() == 0, first.log()
    rows = support.grow_history(tmp_path / "state", 20_000)

    daemon = support.Daemon(zctx, tmp_path, ipc=True).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=("violation/",))
        subscriber.warm_up(sender)
        # H7 live again: `session H7` answers from the engine and from its ~400 rows in the history.
        stored = daemon.status()["violations_stored"]
        sender.batch(streams.alert_frequency_session("H7", APP, T0 + 5_000_000))
        daemon.wait_status(lambda s: s["violations_stored"] == stored + 1, what="H7 live")
        subscriber.collect(lambda got: len(subscriber.violations(got)) >= 1, timeout=5)
        subscriber.pending.clear()
        sender.close()
        before = daemon.status()

        # The steady stream, from a thread of its own (its socket is made and closed there): one
        # session every ~4 ms, each its own message of events.
        sent = {"events": 0}

        def stream() -> None:
            pub = support.EventSender(zctx, daemon.events)
            time.sleep(0.3)  # the connection (the daemon binds; a late joiner loses its first messages)
            for n in range(SESSIONS):
                events = streams.alert_frequency_session(f"L{n}", APP, T0 + 1_000_000 + n)
                pub.events(events)
                sent["events"] += len(events)
                time.sleep(0.004)
            pub.close()

        streamer = threading.Thread(target=stream)
        streamer.start()
        requests = [
            {"cmd": "status"},
            {"cmd": "sessions", "limit": 1_000_000},
            {"cmd": "session", "id": "H7", "events": 16_384, "violations": 10_000},
            {"cmd": "rules"},
            {"cmd": "violations", "limit": 10_000},
            {"cmd": "violations", "session": "H7", "limit": 10_000},
            {"cmd": "reload"},
        ]
        answered = {r["cmd"] + ("/session" if "session" in r else ""): 0 for r in requests}
        while streamer.is_alive():
            for request in requests:
                reply = daemon.request(request, timeout=10)
                assert reply["ok"] is True, (request, reply)
                answered[request["cmd"] + ("/session" if "session" in request else "")] += 1
        streamer.join()
        assert min(answered.values()) >= 2, answered

        after = daemon.wait_status(
            lambda s: s["events_received"] - before["events_received"] >= sent["events"]
            and s["violations_stored"] - before["violations_stored"] >= SESSIONS, timeout=20, what="the stream")
        received = subscriber.collect(lambda got: len(got) >= SESSIONS, timeout=20)
        assert after["events_received"] - before["events_received"] == sent["events"] == SESSIONS * EVENTS_PER_SESSION
        assert after["violations_stored"] - before["violations_stored"] == SESSIONS
        assert after["violations_published"] - before["violations_published"] == SESSIONS
        assert sorted(m.body["session"] for m in subscriber.violations(received)) == sorted(f"L{n}" for n in range(SESSIONS))
        assert after["events_rejected"] == before["events_rejected"] and after["subscriber_overflows"] == before["subscriber_overflows"]
        db = sqlite3.connect(tmp_path / "state" / "history.sqlite")
        stored = db.execute("SELECT COUNT(DISTINCT session) FROM violations WHERE session LIKE 'L%'").fetchone()[0]
        db.close()
        assert stored == SESSIONS
        print(f"history {rows} rows; requests answered during the stream {answered}; "
              f"longest hold of the ingest thread {after['control_hold_max_us']} µs ({after['control_hold_max_request']}); "
              f"by request {after['control_hold_us_by_request']}")
        # `violations` is answered by the control thread alone: it never holds the ingest thread.
        assert set(after["control_hold_us_by_request"]) == {r["cmd"] for r in requests} - {"violations"}
        assert after["control_hold_max_us"] > 0 and after["control_hold_max_request"] in {r["cmd"] for r in requests}
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()
