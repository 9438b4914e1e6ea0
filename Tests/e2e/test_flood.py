"""A session flood past max_sessions: the least recently active are released,
memory stays bounded, and a diagnostic says so."""
from __future__ import annotations

import time

import e2e_support as support

T0 = 1_732_290_000_000


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_a_session_flood_evicts_the_least_recently_active_with_bounded_memory(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("max_sessions: 2000\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        sub = support.Subscriber(zctx, daemon.publish, prefixes=("diag/",))
        sub.warm_up(sender)

        def flood(first: int, count: int) -> None:
            for start in range(first, first + count, 500):
                sender.batch([{"v": 1, "type": "session.start", "session": f"F{n}", "ts": T0 + n, "app": "com.example.flood"}
                              for n in range(start, min(start + 500, first + count))])

        flood(0, 2000)
        daemon.wait_status(lambda s: s["sessions_live"] == 2000, timeout=20, what="2000 sessions")
        # F0 is touched: it becomes the most recently active and must survive the flood's first evictions
        sender.event({"v": 1, "type": "user.action", "session": "F0", "ts": T0 + 10})
        daemon.wait_status(lambda s: s["events_judged"] >= 2001, timeout=10, what="F0 touched")
        rss_before = rss_kib(daemon.process.pid)
        flood(2000, 1999)
        status = daemon.wait_status(lambda s: s["sessions_started"] >= 3999, timeout=30, what="flood judged")
        assert status["sessions_live"] == 2000
        assert status["sessions_evicted"] == 1999
        assert daemon.request({"cmd": "session", "id": "F0"})["ok"] is True, "the recently touched session survived"
        assert daemon.request({"cmd": "session", "id": "F1"})["ok"] is False, "the least recently active went first"
        flood(4000, 20000)
        status = daemon.wait_status(lambda s: s["sessions_started"] >= 23999, timeout=60, what="big flood judged")
        assert status["sessions_live"] == 2000
        rss_after = rss_kib(daemon.process.pid)
        assert rss_after < rss_before + 20 * 1024, (rss_before, rss_after)  # bounded: 10x the sessions, < 20 MiB more
        got = sub.collect(lambda m: any(x.topic.endswith("/session_evicted") for x in m), timeout=5)
        evicted = [m for m in got if m.topic == "diag/com.example.flood/session_evicted"]
        assert evicted and evicted[0].body["reason"] == "session_evicted"
        sender.close()
        sub.close()
    finally:
        assert daemon.stop() == 0
