"""ModalwatchClient as an app uses it (Examples/ClientExample): what it puts on the wire is
valid wire format v1 (event.schema.json, with jsonschema), on shard topics, and a daemon
judges every event type it sends."""
from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import pytest
import zmq
from jsonschema import Draft202012Validator

import e2e_support as support
import shard_support as shard
from test_demo import SCHEMA

ALL_TYPES = {
    "session.start", "session.end", "app.background", "app.foreground", "user.action", "task.progress",
    "alert.presented", "alert.dismissed", "sheet.presented", "sheet.dismissed", "modal.presented",
    "modal.dismissed", "popover.presented", "popover.dismissed", "nav.push", "nav.pop",
}
EXAMPLE = support.bin_dir() / "modalwatch-client-example"


def run_example(*args: str) -> dict:
    result = subprocess.run([str(EXAMPLE), *args], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    return json.loads(result.stdout)


def schema() -> Draft202012Validator:
    path = SCHEMA
    return Draft202012Validator(json.loads(path.read_text()))


def test_what_the_client_sends_is_wire_format_v1_on_shard_topics(zctx):
    socket = zctx.socket(zmq.SUB)
    socket.linger = 0
    socket.setsockopt(zmq.SUBSCRIBE, b"")
    socket.bind("tcp://127.0.0.1:*")
    endpoint = socket.getsockopt(zmq.LAST_ENDPOINT).decode()
    messages: list[list[bytes]] = []
    done = threading.Event()

    def receive() -> None:
        # Polling keeps the socket's connections attached (and our subscription sent).
        while not done.is_set():
            if socket.poll(20):
                messages.append(socket.recv_multipart())

    receiver = threading.Thread(target=receive)
    receiver.start()
    try:
        counters = run_example(endpoint, "--app", "com.example.mail", "--sessions", "3")
    finally:
        support.poll_until(lambda: sum(len(m[1].split(b"\n")) for m in messages) >= 54, 5)
        done.set()
        receiver.join()
        socket.close()
    assert counters["events_sent"] == counters["events_queued"] == 54 and counters["events_dropped"] == 0, counters
    validator = schema()
    seen: set[str] = set()
    seqs: dict[str, list[int]] = {}
    for frames in messages:
        assert len(frames) == 2, "topic and payload"
        topic = frames[0].decode()
        lines = frames[1].split(b"\n")
        assert 1 <= len(lines) <= 1024
        for line in lines:
            event = json.loads(line)
            errors = sorted(validator.iter_errors(event), key=lambda e: e.path)
            assert not errors, f"{line!r}: {errors[0].message}"
            assert line == support.encode(event), "compact JSON, keys as sent"
            assert topic.startswith(f"ui/{shard.bucket('com.example.mail'):02x}/com.example.mail/"), topic
            seen.add(event["type"])
            seqs.setdefault(event["session"], []).append(event["seq"])
    assert seen == ALL_TYPES
    assert all(s == list(range(1, 19)) for s in seqs.values()), seqs


def test_a_daemon_judges_every_type_the_client_sends(daemon):
    counters = run_example(daemon.events, "--app", "com.example.mail")
    assert counters["events_sent"] == 18, counters
    # Stored is asynchronous (the publishing thread commits after the ingest thread judged): wait for both.
    status = daemon.wait_status(lambda s: s["events_received"] >= 18 and s["violations_stored"] == s["violations_found"],
                                what="the example session judged and stored")
    assert status["events_rejected"] == 0 and status["events_unknown_type"] == 0, support.compact_status(status)
    assert status["events_judged"] == 18 and status["sessions_ended"] == 1
    found = daemon.request({"cmd": "violations", "limit": 100})["violations"]
    rules = {v["rule"] for v in found}
    assert {"alert-single-button", "alert-title-single-word"} <= rules, rules
