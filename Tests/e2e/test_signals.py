"""Stopping: SIGTERM / SIGINT mid-stream judge and publish everything received, then exit 0; SIGHUP reloads."""
from __future__ import annotations

import signal
import threading
import time

import pytest

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"
SESSIONS = 3000
PER_SESSION = len(streams.alert_frequency_session("x", APP))


def big_stream() -> list[bytes]:
    """SESSIONS sessions one after another, each breaking alert-frequency once; one message per event."""
    return [
        support.encode(event)
        for n in range(SESSIONS)
        for event in streams.alert_frequency_session(f"Q{n}", APP, T0 + n * 70_000)
    ]


def send_then_stop(daemon: support.Daemon, sender: support.EventSender, signum: int) -> tuple[dict, int, int]:
    """Streams from a thread (paced, ~1 s in all) and stops the daemon while the stream is flowing.

    Returns the status before the stream, and the events and violations of the daemon's last log line.
    """
    messages = big_stream()
    finished = threading.Event()

    def stream() -> None:
        for start in range(0, len(messages), 300):
            if finished.is_set():
                return
            for message in messages[start:start + 300]:
                sender.socket.send(message)
            time.sleep(0.01)

    base = daemon.status()
    thread = threading.Thread(target=stream)
    thread.start()
    try:
        last = daemon.wait_status(
            lambda s: support.delta(s, base, "events_received") >= 3000, timeout=10, what="the stream to arrive")
        code = daemon.stop(signum, timeout=10.0)
    finally:
        finished.set()
        thread.join(timeout=10)
    assert code == 0, f"exit {code} on signal {signum}:\n{daemon.log()[-3000:]}"
    counts = support.stopping_counts(daemon.log())
    assert counts is not None, f"no 'stopping' line with the counts in the log:\n{daemon.log()[-3000:]}"
    events, violations = counts
    assert events >= last["events_received"], "the final count includes everything counted before the signal"
    assert events - base["events_received"] <= len(messages)
    assert violations >= last["violations_published"]
    return base, events, violations


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stop_mid_stream_exits_0_after_judging_what_was_received(daemon, sender, signum):
    send_then_stop(daemon, sender, signum)
    assert not daemon.alive


@pytest.mark.needs_rules("alert-frequency")
def test_sigterm_mid_stream_publishes_every_violation_found(daemon, sender, subscriber):
    base, events, violations = send_then_stop(daemon, sender, signal.SIGTERM)
    received = events - base["events_received"]  # stream events received, in order
    # Session n's fourth alert is stream event n * PER_SESSION + ALERT_FREQUENCY_TRIGGER.
    expected = sum(1 for n in range(SESSIONS) if n * PER_SESSION + streams.ALERT_FREQUENCY_TRIGGER < received)
    published = violations - base["violations_published"]
    assert published >= expected, (received, published, expected)
    got = subscriber.collect(lambda ms: len(subscriber.violations(ms)) >= published, timeout=10)
    assert len(subscriber.violations(got)) == published, "every violation found before the stop reached the subscriber"
    sessions = [m.body["session"] for m in subscriber.violations(got) if m.body["rule"] == "alert-frequency"]
    assert sessions == [f"Q{n}" for n in range(expected)], "alert-frequency fired for every session received, in order"


def test_sighup_reloads_without_dropping_sessions(daemon, sender):
    events = streams.alert_frequency_session("HUP", APP)
    base = daemon.status()
    sender.events(events)
    before = daemon.wait_status(
        lambda s: support.delta(s, base, "events_judged") >= len(events), what="the session judged")
    daemon.send_signal(signal.SIGHUP)
    support.poll_until(lambda: "reloaded" in daemon.log(), 3.0)
    assert "configuration reloaded" in daemon.log(), daemon.log()[-2000:]
    after = daemon.status()
    assert daemon.alive
    assert after["sessions_live"] == before["sessions_live"] == 1


def test_sighup_while_starting_does_not_end_the_daemon(zctx, tmp_path):
    """A reload asked for while the daemon starts (before its handler runs) is no stop: SIGHUP is
    ignored from the first instructions of main until the handler takes it. The SIGHUP is sent as
    soon as the process no longer takes the default action, which is at main's start."""
    daemon = support.Daemon(zctx, tmp_path)
    seen: list[str] = []

    def hang_up() -> None:
        deadline = time.monotonic() + 10
        while daemon.process is None and time.monotonic() < deadline:
            time.sleep(0.0005)
        while daemon.process is not None and time.monotonic() < deadline:
            state = support.signal_disposition(daemon.process.pid, signal.SIGHUP)
            if state in ("ignored", "caught"):
                seen.append(state)
                daemon.process.send_signal(signal.SIGHUP)
                return
            if state == "gone":
                return
            time.sleep(0.0005)

    thread = threading.Thread(target=hang_up)
    thread.start()
    try:
        daemon.start()
        thread.join(timeout=10)
        assert seen == ["ignored"], f"SIGHUP was {seen} when first not default: ignored from main's start, before the handler"
        assert daemon.alive, daemon.log()[-2000:]
        daemon.send_signal(signal.SIGHUP)
        support.poll_until(lambda: "configuration reloaded" in daemon.log(), 3.0)
        assert "configuration reloaded" in daemon.log(), daemon.log()[-2000:]
    finally:
        thread.join(timeout=10)
        if daemon.alive:
            assert daemon.stop() == 0, daemon.log()[-2000:]


def test_a_sighup_reload_is_read_off_the_ingest_thread(zctx, tmp_path):
    """SIGHUP's reload reads and parses the file on the reload service's thread: a large file
    (about 1 MB, seconds to parse) never holds the ingest thread, so `status` (answered by it)
    stays prompt meanwhile. A file past 1 MiB is refused in one line naming the bound."""
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("apps: {}\n")
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(config)]).start()
    try:
        config.write_text("apps:\n" + "".join(f"  com.example.app{i}: {{ edition: current }}\n" for i in range(22_000)))
        assert config.stat().st_size < 1 << 20
        daemon.send_signal(signal.SIGHUP)
        slowest = 0.0
        deadline = time.monotonic() + 60
        while "configuration reloaded" not in daemon.log():
            assert time.monotonic() < deadline, daemon.log()[-2000:]
            started = time.monotonic()
            daemon.status()
            slowest = max(slowest, time.monotonic() - started)
            assert "reload refused" not in daemon.log(), daemon.log()[-2000:]
        assert slowest < 0.5, f"status took {slowest:.2f} s while the reload parsed"

        config.write_text("# padding\n" * 110_000)
        assert config.stat().st_size > 1 << 20
        daemon.send_signal(signal.SIGHUP)
        assert support.poll_until(lambda: "reload refused" in daemon.log(), 10), daemon.log()[-2000:]
        refused = [line for line in daemon.log().splitlines() if "reload refused" in line]
        assert "more than 1048576 bytes" in refused[-1], refused[-1]
        assert daemon.alive
    finally:
        assert daemon.stop() == 0
