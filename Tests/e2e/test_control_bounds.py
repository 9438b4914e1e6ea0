"""Hostile control clients: DEALERs that pipeline big `violations` requests and never read add at
most 64 MiB to the daemon's RSS; replies are capped and paged; memory is given back."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import zmq

import e2e_support as support
import streams
from streams import T0

APP = "com.example.mail"
MIB = 1 << 20


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")



@pytest.mark.needs_rules("alert-frequency")
def test_hostile_control_clients_add_at_most_64_mib(zctx, tmp_path):
    first = support.Daemon(zctx, tmp_path).start()
    try:
        sender = support.EventSender(zctx, first.events)
        sender.warm_up(first)
        for n in range(20):
            sender.batch(streams.alert_frequency_session(f"C{n}", APP, T0 + n))
        first.wait_status(lambda s: s["violations_stored"] == 20, what="a history")
        sender.close()
    finally:
        assert first.stop() == 0, first.log()
    rows = support.grow_history(tmp_path / "state", 4000, step=2000)

    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        # Paged: a request for 10,000 gets at most 256 KiB of violations and a cursor; following
        # the cursors gives every row once.
        page = daemon.request({"cmd": "violations", "limit": 10000}, timeout=10)
        assert page["ok"] is True and 0 < page["count"] < rows and page["next"], {k: page[k] for k in ("count", "next")}
        assert sum(len(json.dumps(v)) for v in page["violations"]) <= 300 * 1024
        seen = [v["id"] for v in page["violations"]]
        while page["next"]:
            page = daemon.request({"cmd": "violations", "limit": 10000, "cursor": page["next"]}, timeout=10)
            assert page["ok"] is True, page
            seen += [v["id"] for v in page["violations"]]
        assert len(seen) == rows, "every row once (the copies share their JSON, so count them)"
        bad = daemon.request({"cmd": "violations", "cursor": "yesterday"})
        assert bad["ok"] is False and "cursor" in bad["error"]
        for hostile in ("0.-9223372036854775808", "0.0", "-9223372036854775808.1", "0.9223372036854775807",
                        "9223372036854775807.9223372036854775807", "1e3.1", "0.18446744073709551616"):
            bad = daemon.request({"cmd": "violations", "cursor": hostile})
            assert bad["ok"] is False and "cursor" in bad["error"], (hostile, bad)
        assert daemon.request({"cmd": "status"})["ok"] is True, "the daemon lives on"

        # The hostile part with replies of ~50 KiB (60 rows), so that 2,000 requests take seconds in a
        # debug build; unbounded, 20 x 100 of them would queue ~100 MiB in the daemon.
        support.keep_oldest(tmp_path / "state", 60)
        pid = daemon.process.pid
        time.sleep(1.2)   # the trim after those replies
        base_status = daemon.status()
        base = rss_bytes(pid)
        clients = []
        for _ in range(20):
            dealer = zctx.socket(zmq.DEALER)
            dealer.linger = 0
            dealer.rcvhwm = 1          # reads nothing; keeps as little as it can on its side
            dealer.connect(daemon.control)
            for _ in range(100):
                dealer.send_multipart([b"", b'{"cmd":"violations","limit":10000}'])
            clients.append(dealer)
        peak = base
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            peak = max(peak, rss_bytes(pid))
            status = daemon.status()
            if status["control_requests"] - base_status["control_requests"] >= 2000:
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the daemon did not get through the 2,000 requests: {status['control_requests'] - base_status['control_requests']}")
        peak = max(peak, rss_bytes(pid))
        for dealer in clients:
            dealer.close()
        time.sleep(1.5)
        after = rss_bytes(pid)
        print(f"RSS: base {base / MIB:.1f} MiB, peak {peak / MIB:.1f} MiB, after the clients left {after / MIB:.1f} MiB")
        assert peak - base <= 64 * MIB, (base / MIB, peak / MIB)
        assert after - base <= 32 * MIB, (base / MIB, after / MIB)
        assert daemon.status()["ok"] is True
    finally:
        assert daemon.stop() == 0, daemon.log()


def test_sessions_are_paged_and_the_cli_follows_the_cursor(zctx, tmp_path):
    """`sessions` with the largest limit gets at most 256 KiB of sessions and a `next` cursor; sent back as
    `cursor`, it gives the next page of the same order, every session once; `modalwatch sessions --limit N`
    follows it up to N; a request without `cursor` (an older client) gets the first page."""
    live = 3000
    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        for first in range(0, live, 500):
            sender.batch(streams.start(f"P{n:05d}", APP, T0 + n) for n in range(first, first + 500))
        daemon.wait_status(lambda s: s["sessions_live"] >= live, timeout=20, what="the live sessions")
        sender.close()

        for sort in ("recent", "events", "depth"):
            page = daemon.request({"cmd": "sessions", "sort": sort, "limit": 1_000_000}, timeout=10)
            assert page["ok"] is True and page["total"] == live, page.get("error")
            assert 0 < len(page["sessions"]) < live and page["next"], (len(page["sessions"]), page["next"])
            ids: list[str] = []
            keys: list[tuple[int, str]] = []
            pages = 0
            while True:
                pages += 1
                assert len(support.encode({"s": page["sessions"]})) <= 256 * 1024 + 16, "a page within 256 KiB"
                ids += [s["id"] for s in page["sessions"]]
                keys += [(-s["last_observed"], s["id"]) for s in page["sessions"]]
                if not page["next"]:
                    break
                page = daemon.request({"cmd": "sessions", "sort": sort, "limit": 1_000_000, "cursor": page["next"]}, timeout=10)
                assert page["ok"] is True, page
            assert pages > 1
            assert len(ids) == len(set(ids)) == live, (sort, len(ids), len(set(ids)))
            if sort == "recent":
                # Idle sessions: one order across the pages, most recently active first, then by id.
                assert keys == sorted(keys)

        # A cursor of another order, or none at all, is refused with a sentence.
        first = daemon.request({"cmd": "sessions", "sort": "recent", "limit": 10})
        assert first["ok"] is True and len(first["sessions"]) == 10 and first["next"]
        other = daemon.request({"cmd": "sessions", "sort": "events", "limit": 10, "cursor": first["next"]})
        assert other["ok"] is False and "cursor" in other["error"]
        bad = daemon.request({"cmd": "sessions", "cursor": "yesterday"})
        assert bad["ok"] is False and "cursor" in bad["error"]

        # The CLI follows the cursor up to --limit.
        listing = support.cli_json(["sessions", "--control", daemon.control, "--json", "--limit", "1000000"], timeout=60)
        assert listing["total"] == live and len(listing["sessions"]) == live
        assert len({s["id"] for s in listing["sessions"]}) == live
        some = support.cli_json(["sessions", "--control", daemon.control, "--json", "--limit", "1500"], timeout=60)
        assert [s["id"] for s in some["sessions"]] == [s["id"] for s in listing["sessions"][:1500]]
        table = support.run_cli(["sessions", "--control", daemon.control, "--limit", "2000"], timeout=60)
        assert table.returncode == 0, table.stderr
        assert "2000 of 3000 live sessions" in table.stdout.decode()
    finally:
        assert daemon.stop() == 0, daemon.log()
