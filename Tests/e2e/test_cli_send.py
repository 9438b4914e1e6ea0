"""`modalwatch send --rate N` on a terminal shows its progress while it sends, then a summary, as a person sees it."""
from __future__ import annotations

import re

import e2e_support as support
import streams
from streams import T0

APP = "com.example.send"


def test_send_at_a_rate_shows_progress_on_a_terminal(daemon, tmp_path):
    events = [streams.start("P1", APP, T0)] + [streams.action("P1", T0 + n * 10, f"tap {n}") for n in range(1, 60)]
    stream = support.write_stream(tmp_path / "progress.ndjson", events)
    tmux = support.Tmux(tmp_path, width=100, height=10)
    try:
        tmux.start(f"{support.cli_path()} send {stream} --events {daemon.events} --rate 40; echo EXIT=$?; sleep 30")
        midway = tmux.wait_for(lambda s: re.search(r"sent (\d+)/60 events \((\d+)%\)", s), timeout=5)
        sent = int(re.search(r"sent (\d+)/60 events", midway).group(1))
        assert 0 < sent < 60, f"progress while sending:\n{midway}"
        done = tmux.wait_for(lambda s: "EXIT=" in s, timeout=5)
        summary = re.search(r"sent 60 events in (\d+\.\d+) s \((\d+)/s\)", done)
        assert "EXIT=0" in done and summary, done
        assert float(summary.group(1)) >= 59 / 40 - 0.01 and int(summary.group(2)) <= 41, f"--rate 40 holds:\n{done}"
    finally:
        tmux.kill()
    daemon.wait_status(lambda s: s["events_judged"] >= 60, what="60 events judged")
