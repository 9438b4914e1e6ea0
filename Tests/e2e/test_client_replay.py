"""The client's replay window (docs/client.md, "Replay"), through `modalwatch send --replay-window`:
a daemon SIGKILLed mid-send and started again on its state directory and endpoints restores its
sessions from the last checkpoint and gets from the client every event it lost (in flight, not yet
judged, judged after the checkpoint, sent while it was down). Its history then holds what
`modalwatch check` finds in the same stream."""
from __future__ import annotations

import json
import signal
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import e2e_support as support
import shard_support as shard

pytestmark = pytest.mark.needs_rules("alert-frequency", "sheet-without-user-action", "modal-depth")

EVENTS = 8000
RATE = 1000  # events/s: the stream takes 8 s


def checkpoint_written(state: Path) -> bool:
    data = (state / "sessions.checkpoint").read_bytes() if (state / "sessions.checkpoint").exists() else b""
    return data[:4] == b"MWCK"


def settled(daemon: support.Daemon, timeout: float = 60.0) -> dict[str, Any]:
    """Waits until the daemon has stored and published all it found, and found nothing more
    between two looks half a second apart."""
    previous: tuple | None = None
    last: dict[str, Any] = {}

    def done() -> bool:
        nonlocal previous, last
        last = daemon.status()
        now = (last["events_received"], last["violations_found"])
        steady, previous = now == previous, now
        stored = last["violations_stored"] + last["violations_already_stored"]
        return steady and stored == last["violations_found"] == last["violations_published"]

    assert support.poll_until(done, timeout, interval=0.5), f"the daemon did not settle: {support.compact_status(last)}"
    return last


def send_through_a_kill(zctx, tmp_path: Path, stream: Path, window: int) -> tuple[dict[str, Any], support.Daemon]:
    """Sends `stream` at RATE; SIGKILLs the daemon after its first checkpoint, mid-send, and starts it
    again on the same state directory and endpoints. Returns `send`'s JSON summary and the daemon."""
    config = tmp_path / "checkpoint.yaml"
    config.write_text("checkpoint_interval: 1s\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    result: dict[str, Any] = {}
    sender = threading.Thread(target=lambda: result.update(run=support.run_cli(
        ["send", str(stream), "--events", daemon.events, "--rate", str(RATE), "--replay-window", str(window), "--json"],
        timeout=120)))
    sender.start()
    try:
        state = tmp_path / "state"
        assert support.poll_until(lambda: daemon.status(fresh=False)["events_received"] > EVENTS // 3 and checkpoint_written(state), 30), \
            "a third of the stream received and a checkpoint written"
        daemon.process.send_signal(signal.SIGKILL)
        daemon.process.wait(timeout=10)
        time.sleep(0.3)  # down a while: the stream goes on
        shard.restart_on_same_endpoints(daemon, timeout=30)
        assert "restored sessions from the newest checkpoint" in daemon.log(), daemon.log()[-2000:]
    finally:
        sender.join(timeout=120)
    assert not sender.is_alive(), "send ended"
    run = result["run"]
    assert run.returncode == 0, run.stderr.decode()
    return json.loads(run.stdout.decode().splitlines()[-1]), daemon


def compare(daemon: support.Daemon, reference: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The history against `check`'s violations, by id: what is missing, extra, different, stored twice."""
    rows = support.history_violations(daemon.workdir / "state")
    stored: dict[str, dict[str, Any]] = {}
    differing = []
    for row in rows:
        violation = support.without_observed(json.loads(row["json"]))
        if violation["id"] in reference and violation != reference[violation["id"]]:
            differing.append(violation["id"])
        stored[violation["id"]] = violation
    copies = Counter(row["id"] for row in rows)
    return {
        "rows": len(rows), "reference": len(reference),
        "missing": sorted(set(reference) - set(stored)), "extra": sorted(set(stored) - set(reference)),
        "differing": differing, "stored_twice": sorted(i for i, n in copies.items() if n > 1),
        "app_dash": [row["id"] for row in rows if row["app"] == "-"],
    }


def test_a_daemon_killed_mid_send_gets_what_it_lost_from_the_replay_window(zctx, tmp_path):
    stream = shard.generate_stream(tmp_path / "steady.ndjson", EVENTS, sessions=200, seed=7)
    reference = shard.reference_violations([stream])
    assert len(reference) > 1000, "the stream gives many violations to compare"
    sent, daemon = send_through_a_kill(zctx, tmp_path, stream, window=10_000)
    try:
        status = settled(daemon)
        found = compare(daemon, reference)
        print("replay:", {k: v if isinstance(v, int) else len(v) for k, v in found.items()},
              {k: sent[k] for k in ("events_sent", "events_replayed", "events_dropped_no_subscriber", "replay_window_overflows")},
              {k: status[k] for k in ("events_received", "duplicates", "events_lost", "events_missing_before_first")})
        assert sent["events_replayed"] > 0 and sent["replay_window_overflows"] == 0, sent
        assert status["duplicates"] > 0, "the replay resent events the restored sessions had: dropped by seq"
        assert status["events_lost"] == 0 and status["events_missing_before_first"] == 0, support.compact_status(status)
        assert not found["app_dash"], f"violations on app '-': {found['app_dash'][:3]}"
        assert not found["missing"] and not found["extra"], \
            f"{len(found['missing'])} ids missing, {len(found['extra'])} extra, e.g. {found['missing'][:3]} {found['extra'][:3]}"
        assert not found["differing"], f"same ids, other fields: {found['differing'][:3]}"
        # What the first daemon found after its last checkpoint it had stored; the restored sessions
        # find it again from the replay, with the same id: published again, stored once.
        assert not found["stored_twice"], f"{len(found['stored_twice'])} ids stored twice, e.g. {found['stored_twice'][:3]}"
        assert found["rows"] == found["reference"], found["rows"]
        assert status["violations_already_stored"] > 0, "the replay judged again what was stored after the checkpoint"
        listed = [json.loads(line)["id"] for line in support.run_cli(
            ["violations", "--control", daemon.control, "--json", "--limit", "10000"]).stdout.decode().splitlines()]
        assert set(listed) == set(reference) and len(listed) == found["rows"], (len(set(listed)), len(listed))
    finally:
        assert daemon.stop() == 0, daemon.log()[-2000:]


def test_without_the_window_the_same_kill_loses_violations(zctx, tmp_path):
    stream = shard.generate_stream(tmp_path / "steady.ndjson", EVENTS, sessions=200, seed=7)
    reference = shard.reference_violations([stream])
    sent, daemon = send_through_a_kill(zctx, tmp_path, stream, window=0)
    try:
        settled(daemon)
        found = compare(daemon, reference)
        print("no replay:", {k: v if isinstance(v, int) else len(v) for k, v in found.items()},
              {k: sent[k] for k in ("events_sent", "events_replayed", "events_dropped_no_subscriber")})
        assert sent["events_replayed"] == 0 and sent["events_dropped_no_subscriber"] > 0, sent
        assert found["missing"], "the events sent while the daemon was down are lost, and their violations"
    finally:
        assert daemon.stop() == 0, daemon.log()[-2000:]
