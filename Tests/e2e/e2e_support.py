"""Helpers for the end-to-end tests.

Everything here is real: the `modalwatchd` process built by `swift build`, its
ZeroMQ sockets, and pyzmq sockets on this side (not the project's Swift
wrapper). Every wait is bounded; nothing here can hang a test run.

Environment:
- MODALWATCH_BIN_DIR: folder holding `modalwatchd` and `modalwatch`
  (default: `.build/debug` of the package this file lives in).
- MODALWATCH_E2E_RULES_DIR: extra rule-module folders (os.pathsep-separated),
  passed as `--rules-dir` to the daemon and to `modalwatch check` / `rules`.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

import zmq

PACKAGE_ROOT = Path(__file__).resolve().parents[2]

# A probe of a type the daemon does not know: counted in events_unknown_type, otherwise ignored.
UNKNOWN_TYPE_PROBE = b'{"v":1,"type":"probe","session":"probe","ts":0}'
# A probe the daemon rejects (bad `ts`) after reading its `app`: it comes back on diag/e2e.warmup/bad_field.
WARMUP_APP = "e2e.warmup"
DIAG_PROBE = b'{"v":1,"app":"e2e.warmup","session":"warmup","type":"probe","ts":-1}'


def diag_probe(session: str) -> bytes:
    """DIAG_PROBE under its own `session`, which its diagnostic names."""
    return b'{"v":1,"app":"e2e.warmup","session":"%s","type":"probe","ts":-1}' % session.encode()

VIOLATION_FIELDS = {
    "v": int, "id": str, "rule": str, "rev": int, "module": str, "severity": str, "edition": str,
    "app": str, "session": str, "ts": int, "observed": int, "message": str, "guideline": str,
    "evidence": dict, "events": list, "fingerprint": str,
}
DIAG_REASONS = {
    "malformed_json", "missing_field", "bad_field", "too_large", "unknown_dismiss",
    "duplicate", "gap", "out_of_order", "session_evicted", "history_unavailable", "module_error",
}


def bin_dir() -> Path:
    """Where the built executables are."""
    override = os.environ.get("MODALWATCH_BIN_DIR")
    return Path(override).resolve() if override else PACKAGE_ROOT / ".build" / "debug"


def daemon_path() -> Path:
    return bin_dir() / "modalwatchd"


def cli_path() -> Path:
    return bin_dir() / "modalwatch"


def rules_dir_args() -> list[str]:
    """`--rules-dir D` for each folder in MODALWATCH_E2E_RULES_DIR."""
    args: list[str] = []
    for directory in os.environ.get("MODALWATCH_E2E_RULES_DIR", "").split(os.pathsep):
        if directory:
            args += ["--rules-dir", directory]
    return args


def free_tcp_endpoint() -> str:
    """A loopback TCP endpoint on a port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


def encode(event: dict[str, Any]) -> bytes:
    """One event as compact UTF-8 JSON."""
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def ndjson(events: Iterable[dict[str, Any]]) -> bytes:
    """A batch: events separated by newlines (no trailing newline)."""
    return b"\n".join(encode(e) for e in events)


def poll_until(predicate: Callable[[], Any], timeout: float, interval: float = 0.01) -> Any:
    """The first truthy value of `predicate()` within `timeout` seconds, else None."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval)


def signal_disposition(pid: int, signum: int) -> str:
    """How process `pid`'s main thread takes `signum` now, from /proc/PID/status: 'ignored', 'caught',
    'blocked' (held for the program to take, e.g. with sigtimedwait), 'default', or 'gone'."""
    fields = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    except OSError:
        return "gone"
    bit = 1 << (signum - 1)
    for field, state in (("SigIgn", "ignored"), ("SigCgt", "caught"), ("SigBlk", "blocked")):
        if int(fields.get(field, "0"), 16) & bit:
            return state
    return "default"


def tail_while_feeding(args: list[str], feed: Callable[[int], None], seconds: float, interval: float,
                       env: dict[str, str] | None = None) -> tuple[int | None, bytes, bytes]:
    """`modalwatch tail ARGS` while `feed(n)` is called every `interval` s (n = 0, 1, ...) until tail
    exits (its `--count` reached) or `seconds` pass: (its exit code, stdout, stderr). A tail still
    running then is killed (exit code None)."""
    tail = subprocess.Popen([str(cli_path()), "tail", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + seconds
        n = 0
        while tail.poll() is None and time.monotonic() < deadline:
            feed(n)
            n += 1
            time.sleep(interval)
        out, err = tail.communicate(timeout=5)
    finally:
        if tail.poll() is None:
            tail.kill()
            tail.wait(timeout=5)
    return tail.returncode, out, err


def run_cli(args: list[str], timeout: float = 20.0, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """Runs `modalwatch ARGS`, bounded; output as text."""
    return subprocess.run(
        [str(cli_path()), *args], input=stdin, capture_output=True, timeout=timeout,
        env={**os.environ, "NO_COLOR": "1"},
    )


def available_rules() -> tuple[set[str], str]:
    """Rule ids `modalwatch rules --json` lists, and its stderr (why modules did not load)."""
    result = run_cli(["rules", "--json", *rules_dir_args()])
    if result.returncode != 0:
        raise RuntimeError(f"modalwatch rules --json exited {result.returncode}: {result.stderr.decode()}")
    listing = json.loads(result.stdout)
    return {rule["id"] for rule in listing["rules"]}, result.stderr.decode()


def check_json(stream_file: Path, *extra: str) -> tuple[int, list[dict[str, Any]], str]:
    """`modalwatch check --format json FILE`: exit code, violations, stderr."""
    result = run_cli(["check", "--format", "json", *rules_dir_args(), *extra, str(stream_file)])
    lines = [line for line in result.stdout.decode().splitlines() if line.strip()]
    return result.returncode, [json.loads(line) for line in lines], result.stderr.decode()


def without_observed(violation: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in violation.items() if k != "observed"}


def assert_violation_shape(topic: str, body: dict[str, Any]) -> None:
    """A violation as violations.md defines it, on its right topic."""
    for field, kind in VIOLATION_FIELDS.items():
        assert field in body, f"violation lacks '{field}': {body}"
        assert isinstance(body[field], kind), f"violation field '{field}' is not {kind.__name__}: {body}"
    assert body["v"] == 1
    assert body["severity"] in {"info", "warning", "error"}, body
    assert body["edition"] in {"2009", "ios7", "current"}, body
    assert "subject" in body and (body["subject"] is None or isinstance(body["subject"], str)), body
    assert body["events"], f"a violation names its triggering events: {body}"
    for ref in body["events"]:
        assert isinstance(ref.get("type"), str) and isinstance(ref.get("ts"), int), body
    assert body["events"][-1]["ts"] == body["ts"], f"the triggering event is last: {body}"
    assert topic == f"violation/{body['app']}/{body['rule']}", (topic, body)


def assert_diagnostic_shape(topic: str, body: dict[str, Any]) -> None:
    """A diagnostic as violations.md defines it, on its right topic."""
    assert body.get("v") == 1, body
    assert body.get("reason") in DIAG_REASONS, body
    assert body.get("app") is None or isinstance(body["app"], str), body
    assert body.get("session") is None or isinstance(body["session"], str), body
    assert isinstance(body.get("detail"), str) and body["detail"], body
    assert isinstance(body.get("observed"), int), body
    assert topic == f"diag/{body['app'] or '-'}/{body['reason']}", (topic, body)


class DaemonExited(Exception):
    """The daemon exited while starting."""


class Daemon:
    """One real `modalwatchd` process on free loopback ports, with a private state dir."""

    def __init__(self, context: zmq.Context, workdir: Path, extra_args: Iterable[str] = (), ipc: bool = False,
                 env: dict[str, str] | None = None, preexec_fn: Callable[[], None] | None = None) -> None:
        self.env = env
        self.preexec_fn = preexec_fn
        self.context = context
        self.workdir = workdir
        self.extra_args = list(extra_args)
        self.ipc = ipc
        self.ipc_folder: str | None = None
        self.process: subprocess.Popen | None = None
        self.log_path: Path | None = None
        self.stopped_on_purpose = False
        self.events = self.publish = self.control = ""

    # -- life cycle

    def start(self, ready_timeout: float = 10.0) -> "Daemon":
        """Starts the daemon and waits, bounded, until its control socket answers `status`."""
        state_dir = self.workdir / "state"
        state_dir.mkdir(parents=True, exist_ok=True)
        for attempt in range(3):
            if self.ipc:
                # ipc:// paths are limited to ~100 bytes: a short private folder, not the test's tmp path.
                folder = self.ipc_folder = self.ipc_folder or tempfile.mkdtemp(prefix="mw-e2e-")
                self.events, self.publish, self.control = (f"ipc://{folder}/{n}.sock" for n in ("events", "publish", "control"))
            else:
                self.events, self.publish, self.control = (free_tcp_endpoint() for _ in range(3))
            self.log_path = self.workdir / f"modalwatchd-{attempt}.log"
            with open(self.log_path, "wb") as log:
                self.process = subprocess.Popen(
                    [
                        str(daemon_path()), "--events", self.events, "--publish", self.publish,
                        "--control", self.control, "--state-dir", str(state_dir),
                        *rules_dir_args(), *self.extra_args,
                    ],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    env=None if self.env is None else {**os.environ, **self.env},
                    preexec_fn=self.preexec_fn,
                )
            try:
                self._wait_ready(ready_timeout)
                return self
            except DaemonExited:
                # A port taken between choosing and binding: try other ports.
                if "cannot bind" in self.log() and attempt < 2:
                    continue
                raise AssertionError(f"modalwatchd exited while starting (code {self.process.returncode}):\n{self.log()}")
        raise AssertionError("unreachable")

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise DaemonExited()
            try:
                reply = self.request({"cmd": "status"}, timeout=0.25)
            except TimeoutError:
                continue
            # The port chosen for the control socket may have been taken, between the choice and the
            # bind, by another worker's daemon, which then answers: ours is the one that bound our
            # events endpoint (ours then fails to bind and exits, and start() tries other ports).
            if reply.get("ok") is True and self.events in reply.get("endpoints", {}).get("events", []):
                return
            time.sleep(0.05)
        self.process.kill()
        self.process.wait(timeout=5)
        raise AssertionError(f"modalwatchd did not answer status within {timeout} s:\n{self.log()}")

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send_signal(self, signum: int) -> None:
        self.process.send_signal(signum)

    def stop(self, signum: int = signal.SIGTERM, timeout: float = 5.0) -> int:
        """Sends `signum` and waits for the exit code; kill -9 and fail after `timeout` s."""
        self.stopped_on_purpose = True
        try:
            if self.process.poll() is not None:
                return self.process.returncode
            self.process.send_signal(signum)
            try:
                return self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
                raise AssertionError(f"modalwatchd did not exit within {timeout} s of signal {signum}; killed:\n{self.log()}")
        finally:
            if self.ipc_folder and self.process.poll() is not None:
                shutil.rmtree(self.ipc_folder, ignore_errors=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path and self.log_path.exists() else ""

    # -- control socket

    def request_raw(self, frames: bytes | list[bytes], timeout: float = 2.0) -> bytes:
        """Sends one request (one frame, or several) on a fresh REQ socket; the reply bytes, or TimeoutError."""
        sock = self.context.socket(zmq.REQ)
        sock.linger = 0
        try:
            sock.connect(self.control)
            if isinstance(frames, list):
                sock.send_multipart(frames)
            else:
                sock.send(frames)
            if not sock.poll(int(timeout * 1000)):
                raise TimeoutError(f"no reply from the control socket {self.control} within {timeout} s")
            reply = sock.recv_multipart()
        finally:
            sock.close()
        assert len(reply) == 1, f"a control reply is one frame, got {len(reply)}"
        return reply[0]

    def request(self, request: dict[str, Any] | bytes | list[bytes], timeout: float = 2.0) -> dict[str, Any]:
        """The parsed reply to one request, which must be a JSON object."""
        payload = request if isinstance(request, (bytes, list)) else json.dumps(request).encode()
        reply = json.loads(self.request_raw(payload, timeout))
        assert isinstance(reply, dict), f"a control reply is a JSON object: {reply!r}"
        return reply

    def all_violations(self, request: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every violation a `violations` request selects, following the reply's `next` cursor page by page."""
        request = {"cmd": "violations", "limit": 10000, **(request or {})}
        found: list[dict[str, Any]] = []
        while True:
            reply = self.request(request)
            assert reply.get("ok") is True, reply
            found += reply["violations"]
            if reply.get("next") is None:
                return found
            request = {**request, "cursor": reply["next"]}

    def status(self, fresh: bool = True, timeout: float = 20.0) -> dict[str, Any]:
        """The daemon's `status`. Its counts are the ingest loop's last published ones, at most a tick
        old (`counts_age_s`); `fresh` (the default) asks again until they were published after the first
        reply was written (`uptime_s - counts_age_s` at or past that reply's `uptime_s`), so they count
        everything the daemon had taken in when this was called. Fails after `timeout` s without them
        (the ingest thread held); `fresh=False` takes the counts as they are."""
        reply = self.request({"cmd": "status"})
        assert reply.get("ok") is True, reply
        if not fresh:
            return reply
        asked_ms = round(reply["uptime_s"] * 1000)
        deadline = time.monotonic() + timeout
        while round(reply["uptime_s"] * 1000) - round(reply["counts_age_s"] * 1000) < asked_ms:
            assert time.monotonic() < deadline, f"no counts newer than {asked_ms} ms of uptime within {timeout} s: {compact_status(reply)}"
            time.sleep(0.02)
            reply = self.request({"cmd": "status"})
            assert reply.get("ok") is True, reply
        return reply

    def wait_status(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0, what: str = "") -> dict[str, Any]:
        """The first status that satisfies `predicate` within `timeout` s; fails with the last one seen.
        The counts are taken as published (`fresh=False`): `predicate` says what they must include, and
        each publication is the counts of one moment."""
        last: dict[str, Any] = {}

        def probe() -> dict[str, Any] | None:
            nonlocal last
            last = self.status(fresh=False)
            return last if predicate(last) else None

        found = poll_until(probe, timeout)
        assert found is not None, f"timed out after {timeout} s waiting for {what or 'a status'}; last status: {compact_status(last)}"
        return found


def compact_status(status: dict[str, Any]) -> dict[str, Any]:
    """The counters of a status reply, for failure messages."""
    keep = ("events_received", "events_judged", "events_rejected", "rejected_by_reason", "events_unknown_type",
            "sessions_live", "violations_found", "violations_published", "diagnostics_published",
            "diagnostics_suppressed", "messages_dropped")
    return {k: status.get(k) for k in keep}


def delta(after: dict[str, Any], before: dict[str, Any], key: str) -> int:
    return after[key] - before[key]


def reasons_delta(after: dict[str, Any], before: dict[str, Any]) -> dict[str, int]:
    """Per-reason rejections between two status replies (reasons that did not change left out)."""
    a, b = after.get("rejected_by_reason", {}), before.get("rejected_by_reason", {})
    changes = {reason: a.get(reason, 0) - b.get(reason, 0) for reason in set(a) | set(b)}
    return {reason: n for reason, n in changes.items() if n}


class EventSender:
    """A PUB socket connected to the daemon's ingest SUB (the daemon binds)."""

    def __init__(self, context: zmq.Context, endpoint: str) -> None:
        self.socket = context.socket(zmq.PUB)
        self.socket.sndhwm = 0  # never drop on this side
        self.socket.linger = 2000
        self.socket.connect(endpoint)

    def send(self, payload: bytes | list[bytes]) -> None:
        """One ZeroMQ message: a payload, or a list of frames."""
        if isinstance(payload, list):
            self.socket.send_multipart(payload)
        else:
            self.socket.send(payload)

    def event(self, event: dict[str, Any], topic: str | None = None) -> None:
        self.send([topic.encode(), encode(event)] if topic else encode(event))

    def events(self, events: Iterable[dict[str, Any]]) -> None:
        """Each event as its own one-frame message."""
        for event in events:
            self.socket.send(encode(event))

    def batch(self, events: Iterable[dict[str, Any]]) -> None:
        self.send(ndjson(events))

    def warm_up(self, daemon: Daemon, timeout: float = 5.0) -> None:
        """Defeats the slow joiner: probes until the daemon counts one, so the stream that follows is received.
        Probes on one connection arrive in order, so `status` then counts every probe before it too: a status
        read after this is a base for the events that follow. A probe is sent again only when the one before
        is not counted within 0.5 s, past the tick (200 ms) `status` may lag behind."""
        base = daemon.status()["events_unknown_type"]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.send(UNKNOWN_TYPE_PROBE)
            if poll_until(lambda: daemon.status(fresh=False)["events_unknown_type"] > base, 0.5):
                return
        raise AssertionError(f"the daemon never received a probe within {timeout} s (events {daemon.events})")

    def close(self) -> None:
        self.socket.close()


@dataclass
class Published:
    """One message from the daemon's PUB socket."""
    topic: str
    body: dict[str, Any]


def published(frames: list[bytes]) -> Published:
    """One message of the daemon's PUB socket from its frames."""
    assert len(frames) == 2, f"every published message has two frames (topic, JSON), got {len(frames)}: {frames!r}"
    return Published(frames[0].decode(), json.loads(frames[1]))


def await_subscriptions(sockets: list[zmq.Socket], sender: EventSender | zmq.Socket,
                        timeout: float = 5.0) -> list[list[list[bytes]]]:
    """Sends probes the daemon rejects (`diag_probe`, each under its own session) through `sender`, a PUB already
    connected to the daemon's ingest socket, until every SUB socket in `sockets` has received the diagnostic of
    the last probe sent; fails after `timeout` s. Then each socket's subscriptions (made before this call) have
    reached the daemon's PUB, and every probe has been taken in and its diagnostic published: the daemon takes
    one connection's messages and publishes in order, so no probe or diagnostic of them is still to come. Each
    socket is subscribed to diag/e2e.warmup/ meanwhile (and unsubscribed after; a subscription of its own to
    that prefix, or to diag/, stays). A probe waits for its diagnostic twice as long as the one before (0.1 s
    to 1.6 s), which keeps them within the daemon's 10 diagnostics a second per app. Returns, for each socket,
    the frames of every other message it received meanwhile, in order."""
    prefix = f"diag/{WARMUP_APP}/".encode()
    for sock in sockets:
        sock.setsockopt(zmq.SUBSCRIBE, prefix)
    others: list[list[list[bytes]]] = [[] for _ in sockets]
    poller = zmq.Poller()
    for sock in sockets:
        poller.register(sock, zmq.POLLIN)
    deadline = time.monotonic() + timeout
    wait = 0.1
    probes = 0
    try:
        while time.monotonic() < deadline:
            probes += 1
            session = f"warmup-{probes}"
            sender.send(diag_probe(session))
            waiting = set(range(len(sockets)))
            round_end = min(deadline, time.monotonic() + wait)
            while waiting and (left := round_end - time.monotonic()) > 0:
                for sock, _ in poller.poll(max(1, int(left * 1000))):
                    i = sockets.index(sock)
                    frames = sock.recv_multipart()
                    if not frames[0].startswith(prefix):
                        others[i].append(frames)
                    elif len(frames) == 2 and json.loads(frames[1]).get("session") == session:
                        waiting.discard(i)
            if not waiting:
                return others
            wait = min(wait * 2, 1.6)
        raise AssertionError(f"the diagnostic of probe {probes} did not come back to every subscriber within {timeout} s")
    finally:
        for sock in sockets:
            sock.setsockopt(zmq.UNSUBSCRIBE, prefix)


class Subscriber:
    """A SUB socket connected to the daemon's PUB."""

    def __init__(self, context: zmq.Context, endpoint: str, prefixes: Iterable[str] = ("violation/", "diag/")) -> None:
        self.socket = context.socket(zmq.SUB)
        self.socket.linger = 0
        self.socket.rcvhwm = 0
        self.prefixes = list(prefixes)
        for prefix in self.prefixes:
            self.socket.setsockopt(zmq.SUBSCRIBE, prefix.encode())
        self.socket.connect(endpoint)
        self.pending: list[Published] = []

    def warm_up(self, sender: EventSender, timeout: float = 5.0) -> None:
        """Probes until a diagnostic of our own comes back: the subscription, and the sender, are live
        (`await_subscriptions`); what else came meanwhile is kept."""
        for frames in await_subscriptions([self.socket], sender, timeout)[0]:
            self.pending.append(published(frames))

    def _receive(self, timeout: float) -> Published | None:
        if not self.socket.poll(max(0, int(timeout * 1000))):
            return None
        return published(self.socket.recv_multipart())

    def _take_until(self, stop: Callable[[Published], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline - time.monotonic())
            if message is None:
                return False
            self.pending.append(message)
            if stop(message):
                return True

    def collect(self, done: Callable[[list[Published]], bool], timeout: float = 5.0, settle: float = 0.15) -> list[Published]:
        """Everything received until `done(all so far)` holds (bounded), plus what comes within `settle` s after."""
        deadline = time.monotonic() + timeout
        while not done(self.pending):
            message = self._receive(deadline - time.monotonic())
            if message is None:
                break
            self.pending.append(message)
        self._take_until(lambda m: False, settle)
        return list(self.pending)

    def violations(self, messages: list[Published] | None = None) -> list[Published]:
        return [m for m in (self.pending if messages is None else messages) if m.topic.startswith("violation/")]

    def diagnostics(self, messages: list[Published] | None = None) -> list[Published]:
        return [m for m in (self.pending if messages is None else messages) if m.topic.startswith("diag/")]

    def close(self) -> None:
        self.socket.close()


STOPPING_LINE = re.compile(r"events=(\d+) violations=(\d+).*stopping")


def stopping_counts(log: str) -> tuple[int, int] | None:
    """(events, violations) from the daemon's last log line on a graceful stop."""
    found = STOPPING_LINE.findall(log)
    return (int(found[-1][0]), int(found[-1][1])) if found else None


# -- the command line as a person uses it (test_cli_*.py)

def sarif_schema_path() -> Path:
    """The official SARIF 2.1.0 JSON schema (OASIS), kept in Tests/Fixtures/sarif (never fetched)."""
    override = os.environ.get("MODALWATCH_SARIF_SCHEMA")
    return Path(override) if override else PACKAGE_ROOT / "Tests" / "Fixtures" / "sarif" / "sarif-schema-2.1.0.json"


def released_history_schema() -> str:
    """The SQL of 0.1.0's history file (history schema version 1): Tests/Fixtures/history/0.1.0.sql, which the Swift
    tests read too."""
    return (PACKAGE_ROOT / "Tests" / "Fixtures" / "history" / "0.1.0.sql").read_text()


def write_stream(path: Path, events: Iterable[dict[str, Any]]) -> Path:
    """An NDJSON file of `events`, one per line."""
    path.write_bytes(b"".join(encode(e) + b"\n" for e in events))
    return path


def cli_json(args: list[str], timeout: float = 20.0) -> Any:
    """`modalwatch ARGS` that must exit 0 and print one JSON value; the value."""
    result = run_cli(args, timeout=timeout)
    assert result.returncode == 0, f"modalwatch {' '.join(args)} exited {result.returncode}: {result.stderr.decode()}"
    return json.loads(result.stdout)


def assert_fields(obj: dict[str, Any], fields: dict[str, type | tuple[type, ...]], what: str) -> None:
    """Every documented field is there with its type."""
    for field, kind in fields.items():
        assert field in obj, f"{what} lacks '{field}': {sorted(obj)}"
        assert isinstance(obj[field], kind), f"{what} field '{field}' is {type(obj[field]).__name__}, not {kind}: {obj[field]!r}"


class Tmux:
    """A private tmux server running one command in a detached window: a terminal a test can type into and read."""

    def __init__(self, workdir: Path, width: int = 120, height: int = 30) -> None:
        if shutil.which("tmux") is None:
            raise AssertionError("tmux is not installed; scripts/test.sh installs it")
        self.socket = f"mw-e2e-{os.getpid()}-{time.monotonic_ns()}"
        self.workdir = workdir
        self.width, self.height = width, height
        self.started = False

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, timeout=10)
        if check:
            assert result.returncode == 0, f"tmux {' '.join(args)}: {result.stderr.decode()}"
        return result

    def start(self, shell_command: str, env: dict[str, str] | None = None) -> "Tmux":
        """Runs `shell_command` (through sh) in a new detached session of the set size; end it with a sleep
        to read the screen after the program exits."""
        exports = " ".join(f"{k}={shlex_quote(v)}" for k, v in (env or {}).items())
        command = f"env {exports} sh -c {shlex_quote(shell_command)}" if exports else f"sh -c {shlex_quote(shell_command)}"
        self.tmux("new-session", "-d", "-s", "main", "-x", str(self.width), "-y", str(self.height), command)
        self.started = True
        return self

    def capture(self, escapes: bool = False) -> str:
        """The visible screen, one line per row (with -e: colour escapes kept)."""
        args = ["capture-pane", "-p", "-t", "main"] + (["-e"] if escapes else [])
        return self.tmux(*args).stdout.decode(errors="replace")

    def wait_for(self, predicate: Callable[[str], Any], timeout: float = 5.0, escapes: bool = False) -> str:
        """The first screen for which `predicate(screen)` holds within `timeout` s; fails with the last screen."""
        last = ""

        def probe() -> str | None:
            nonlocal last
            last = self.capture(escapes)
            return last if predicate(last) else None

        found = poll_until(probe, timeout, interval=0.05)
        assert found is not None, f"timed out after {timeout} s; the screen:\n{last}"
        return found

    def send_keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "main", *keys)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", "main", "-x", str(width), "-y", str(height))
        self.width, self.height = width, height

    def kill(self) -> None:
        if self.started:
            self.tmux("kill-server", check=False)
            self.started = False


def shlex_quote(text: str) -> str:
    import shlex
    return shlex.quote(text)


# The history as docs/spec/history.md gives it: one row a violation, read and written with SQL.
HISTORY_COLUMNS = ("seq", "id", "fingerprint", "ts", "observed", "severity", "rule", "app", "session", "json")


def history_violations(state: Path, db: sqlite3.Connection | None = None) -> list[dict[str, Any]]:
    """Every violation in the state directory's history, oldest first (storing order)."""
    own = db is None
    db = db or sqlite3.connect(f"file:{state / 'history.sqlite'}?mode=ro", uri=True, timeout=10)
    try:
        rows = db.execute(f"SELECT {', '.join(HISTORY_COLUMNS)} FROM violations ORDER BY seq")
        return [dict(zip(HISTORY_COLUMNS, row)) for row in rows]
    finally:
        if own:
            db.close()


def stored_ids(state: Path) -> list[str]:
    """The ids in the history, oldest first."""
    return [v["id"] for v in history_violations(state)]


def insert_violations(db: sqlite3.Connection, violations: list[dict[str, Any]]) -> None:
    """Appends `violations` as the daemon stores a commit: one row each, in order (the written columns of
    docs/spec/history.md; the rest is generated from `json`)."""
    db.executemany("INSERT OR IGNORE INTO violation_rows (id, ts, observed, rule, severity, app, session, fingerprint, json) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [(v["id"], v["ts"], v["observed"], v["rule"], v["severity"], v["app"], v["session"], v["fingerprint"], v["json"])
                    for v in violations])


def keep_oldest(state: Path, count: int) -> None:
    """Cuts the history to its oldest `count` violations."""
    db = sqlite3.connect(state / "history.sqlite", timeout=10)
    try:
        db.execute("DELETE FROM violation_rows WHERE seq NOT IN (SELECT seq FROM violation_rows ORDER BY seq LIMIT ?)", (count,))
        db.commit()
    finally:
        db.close()


def grow_history(state: Path, rows: int, step: int = 5000) -> int:
    """Copies the history's newest violations (fresh ids, later ts) until it has `rows`, `step` a commit: a large
    history without a long stream. The count it ends with."""
    db = sqlite3.connect(state / "history.sqlite", timeout=10)
    try:
        count = lambda: db.execute("SELECT COUNT(*) FROM violations").fetchone()[0]
        while count() < rows:
            newest = history_violations(state, db)[-step:]
            copies = [dict(v, id=os.urandom(16).hex(), ts=v["ts"] + 1, observed=v["observed"] + 1) for v in newest]
            insert_violations(db, copies)
            db.commit()
        return count()
    finally:
        db.close()
