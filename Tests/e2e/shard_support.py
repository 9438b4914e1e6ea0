"""Helpers for the sharding tests (scale.md): sharded daemons, the forwarder, the bucket
function, the violations each daemon stored. Everything real: processes, sockets, SQLite."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

import zmq

import e2e_support as support

STREAMS_DIR = support.PACKAGE_ROOT / "Tests" / "RuleModuleTests" / "Streams"
DEMO_STREAM = support.PACKAGE_ROOT / "demo" / "stream.ndjson"
GENERATOR = support.PACKAGE_ROOT / "bench" / "generate_stream.py"
# Rules that keep state across an app's sessions (rules.md): with key `session` they judge a shard's share.
APP_WIDE_RULES = {"modal-transition-inconsistent", "sheet-background-inconsistent"}


def bucket(key: str) -> int:
    """scale.md: FNV-1a 64 of the key's UTF-8 bytes, modulo 256."""
    h = 14695981039346656037
    for byte in key.encode("utf-8"):
        h = ((h ^ byte) * 1099511628211) % (1 << 64)
    return h % 256


def recorded_streams() -> list[Path]:
    """The project's recorded rule streams and the demo stream."""
    return sorted(STREAMS_DIR.glob("*.ndjson")) + sorted((STREAMS_DIR / "content").glob("*.ndjson")) + [DEMO_STREAM]


def generate_stream(path: Path, events: int, sessions: int, seed: int) -> Path:
    with open(path, "wb") as out:
        subprocess.run([sys.executable, str(GENERATOR), "--events", str(events), "--sessions", str(sessions), "--seed", str(seed)],
                       stdout=out, check=True, timeout=120)
    return path


def shares(files: Iterable[Path], count: int, key: str) -> Counter:
    """Events per shard index, as the producer routes them (an event without `app` goes with its session's)."""
    result: Counter = Counter()
    app_of: dict[str, str] = {}
    for file in files:
        for line in file.read_bytes().splitlines():
            if not line.strip():
                continue
            event = json.loads(line)
            session = event.get("session", "")
            if "app" in event:
                app_of[session] = event["app"]
            shard_key = app_of.get(session, "") if key == "app" else session
            result[bucket(shard_key) % count] += 1
    return result


def reference_violations(files: list[Path]) -> dict[str, dict[str, Any]]:
    """`modalwatch check` of the files (what one unsharded daemon publishes), by id, `observed` aside."""
    result = support.run_cli(["check", "--format", "json", *support.rules_dir_args(), *map(str, files)], timeout=180)
    assert result.returncode in (0, 1), result.stderr.decode()
    found: dict[str, dict[str, Any]] = {}
    for line in result.stdout.decode().splitlines():
        if line.strip():
            violation = support.without_observed(json.loads(line))
            found[violation["id"]] = violation
    return found


def stored_violations(daemon: support.Daemon) -> dict[str, dict[str, Any]]:
    """Every violation in the daemon's history file, by id, `observed` aside."""
    found: dict[str, dict[str, Any]] = {}
    for text in (v["json"] for v in support.history_violations(daemon.workdir / "state")):
        violation = support.without_observed(json.loads(text))
        assert violation["id"] not in found, f"one id stored twice: {violation['id']}"
        found[violation["id"]] = violation
    return found


def start_shards(zctx: zmq.Context, workdir: Path, count: int = 3, key: str = "app",
                 connect: str | None = None) -> list[support.Daemon]:
    daemons = []
    for index in range(count):
        extra = ["--shard", f"{index}/{count}", "--shard-key", key]
        if connect:
            extra += ["--events-connect", connect]
        folder = workdir / f"shard{index}"
        folder.mkdir(parents=True, exist_ok=True)
        daemons.append(support.Daemon(zctx, folder, extra).start())
    return daemons


def stop_all(daemons: list[support.Daemon]) -> None:
    for daemon in daemons:
        if daemon.alive:
            code = daemon.stop()
            assert code == 0, f"a shard exited {code} on SIGTERM:\n{daemon.log()[-3000:]}"


def restart_on_same_endpoints(daemon: support.Daemon, timeout: float = 10.0) -> None:
    """Starts a stopped daemon again with the same endpoints and state dir (producers reconnect)."""
    daemon.log_path = daemon.workdir / f"modalwatchd-restart-{int(time.time() * 1000)}.log"
    with open(daemon.log_path, "wb") as log:
        daemon.process = subprocess.Popen(
            [str(support.daemon_path()), "--events", daemon.events, "--publish", daemon.publish, "--control", daemon.control,
             "--state-dir", str(daemon.workdir / "state"), *support.rules_dir_args(), *daemon.extra_args],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    daemon.stopped_on_purpose = False
    daemon._wait_ready(timeout)


def wait_received(daemons: list[support.Daemon], total: int, timeout: float = 120.0) -> list[dict[str, Any]]:
    """Waits until the daemons together received `total` events, stored and published every violation
    they found, and found none more between two looks (the last events may still be judged when
    they are counted received; a violation is stored before it is published)."""
    last: list[dict[str, Any]] = []
    previous: list[int] | None = None

    def done() -> bool:
        nonlocal last, previous
        last = [d.status() for d in daemons]
        found = [s["violations_found"] for s in last]
        steady, previous = found == previous, found
        return (steady and sum(s["events_received"] for s in last) >= total
                and all(s["violations_stored"] == s["violations_found"] == s["violations_published"] for s in last))

    assert support.poll_until(done, timeout, interval=0.2), \
        f"the shards did not receive {total} events within {timeout} s: {[support.compact_status(s) for s in last]}"
    return last


class Forwarder:
    """`modalwatch forward` on free loopback ports."""

    def __init__(self, workdir: Path) -> None:
        self.frontend = support.free_tcp_endpoint()
        self.backend = support.free_tcp_endpoint()
        self.stderr_path = workdir / "forward.err"
        self.stdout_path = workdir / "forward.out"
        with open(self.stderr_path, "wb") as err, open(self.stdout_path, "wb") as out:
            self.process = subprocess.Popen(
                [str(support.cli_path()), "forward", "--frontend", self.frontend, "--backend", self.backend,
                 "--stats-interval", "1", "--json"],
                stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        started = support.poll_until(lambda: "forwarding" in self.stderr_path.read_text() or self.process.poll() is not None, 10)
        assert started and self.process.poll() is None, f"forward did not start: {self.stderr_path.read_text()}"

    def stop(self) -> dict[str, Any]:
        """SIGTERM; it must exit 0 and print its counters."""
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=10)
        assert code == 0, f"forward exited {code}: {self.stderr_path.read_text()}"
        return json.loads(self.stdout_path.read_text())

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=5)


def send(files: list[Path], endpoints: list[str], *extra: str, timeout: float = 300.0) -> dict[str, Any]:
    """`modalwatch send FILES --events EP... --json EXTRA`; must exit 0."""
    args = ["send", *map(str, files)]
    for endpoint in endpoints:
        args += ["--events", endpoint]
    return support.cli_json([*args, "--json", "--timeout", "20000", *extra], timeout=timeout)
