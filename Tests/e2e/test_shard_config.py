"""A sharded daemon's configuration (scale.md): flags and config errors, the bucket
subscriptions and nothing else, a shard change refused on SIGHUP, and a snapshot kept to
the buckets a daemon still owns after a restart with another count."""
from __future__ import annotations

import re
import signal
import subprocess

import pytest
import zmq

import e2e_support as support
import shard_support as shard


def test_bad_shard_flags_are_usage_errors(tmp_path):
    for args, text in ((["--shard", "3/3"], "--shard must be I/N"), (["--shard", "x"], "--shard must be I/N"),
                       (["--shard", "0/3", "--shard-key", "color"], "--shard-key must be app or session")):
        result = subprocess.run([str(support.daemon_path()), *args, "--check-config"], capture_output=True, timeout=30)
        assert result.returncode == 2, (args, result.stderr.decode())
        assert text in result.stderr.decode()
    result = subprocess.run([str(support.daemon_path()), "--shard-key", "session", "--check-config", "--state-dir", str(tmp_path)],
                            capture_output=True, timeout=30)
    assert result.returncode == 1 and "--shard-key needs a shard" in result.stderr.decode(), result.stderr.decode()


def test_shard_config_errors_name_file_line_and_key(tmp_path):
    config = tmp_path / "bad.yaml"
    config.write_text("edition: current\nshard: { index: 3, count: 3, key: color }\n")
    result = subprocess.run([str(support.daemon_path()), "--config", str(config), "--check-config"], capture_output=True, timeout=30)
    errors = result.stderr.decode().strip().splitlines()
    assert result.returncode == 1
    assert any(re.fullmatch(rf"modalwatchd: {re.escape(str(config))}:2: shard\.key: 'color' is not a shard key; use app or session", e) for e in errors), errors
    config.write_text("shard:\n  index: 3\n  count: 3\n")
    result = subprocess.run([str(support.daemon_path()), "--config", str(config), "--check-config"], capture_output=True, timeout=30)
    assert result.returncode == 1 and f"{config}:2: shard.index: 3 is out of range 0...2" in result.stderr.decode(), result.stderr.decode()
    config.write_text("shard: { count: 0 }\n")
    result = subprocess.run([str(support.daemon_path()), "--config", str(config), "--check-config"], capture_output=True, timeout=30)
    assert result.returncode == 1 and "shard.count: 0 is out of range 1...256" in result.stderr.decode()


def test_a_shard_takes_its_buckets_and_nothing_else(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path, ["--shard", "1/3"]).start()
    try:
        producer = zctx.socket(zmq.XPUB)
        producer.linger = 1000
        producer.connect(daemon.events)
        subscriptions = set()
        while len(subscriptions) < 85 and producer.poll(5000):
            subscriptions.add(producer.recv())
        assert subscriptions == {b"\x01" + f"ui/{b:02x}/".encode() for b in range(256) if b % 3 == 1}
        mail = shard.bucket("com.example.mail")  # 0x67 = 103, 103 % 3 == 1: ours
        photos = shard.bucket("com.example.photos")  # 0xf5 = 245, 245 % 3 == 2: not ours
        assert mail % 3 == 1 and photos % 3 == 2
        start = b'{"v":1,"type":"session.start","session":"%s","ts":1,"app":"%s"}'
        producer.send(start % (b"one-frame", b"com.example.mail"))
        producer.send_multipart([b"ui/com.example.mail/x", start % (b"app-topic", b"com.example.mail")])
        producer.send_multipart([f"ui/{photos:02x}/com.example.photos/p".encode(), start % (b"p", b"com.example.photos")])
        producer.send_multipart([f"ui/{mail:02x}/com.example.mail/m".encode(), start % (b"m", b"com.example.mail")])
        status = daemon.wait_status(lambda s: s["events_received"] >= 1, what="the owned bucket's event")
        sessions = daemon.request({"cmd": "sessions"})["sessions"]
        assert [s["id"] for s in sessions] == ["m"] and status["events_received"] == 1
        producer.close()
    finally:
        assert daemon.stop() == 0


def test_a_shard_change_on_sighup_is_refused(zctx, tmp_path):
    config = tmp_path / "shard.yaml"
    config.write_text("shard: { index: 0, count: 3 }\n")
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(config)]).start()
    try:
        assert daemon.status()["shard"] == {"index": 0, "count": 3, "key": "app"}
        config.write_text("shard: { index: 0, count: 4 }\n")
        daemon.send_signal(signal.SIGHUP)
        status = daemon.wait_status(lambda s: s["config_reloads_refused"] == 1, what="the reload refused")
        assert status["shard"] == {"index": 0, "count": 3, "key": "app"} and status["shard_buckets"] == 86
        assert support.poll_until(lambda: "shard changes from 0/3 by app to 0/4 by app; a shard change needs a restart" in daemon.log(), 5), daemon.log()[-2000:]
    finally:
        assert daemon.stop() == 0


def test_a_restart_with_another_count_drops_the_sessions_that_moved(zctx, tmp_path):
    files = shard.recorded_streams()
    daemon = support.Daemon(zctx, tmp_path, ["--shard", "0/1"]).start()
    shard.send(files, [daemon.events], "--shard-count", "1")
    total = sum(len([l for l in f.read_bytes().splitlines() if l.strip()]) for f in files)
    status = daemon.wait_status(lambda s: s["events_received"] >= total, what="every event")
    live = daemon.request({"cmd": "sessions", "limit": 10000})["sessions"]
    assert len(live) == status["sessions_live"] > 5
    moved = [s for s in live if shard.bucket(s["app"]) % 3 != 0]
    assert 0 < len(moved) < len(live)
    assert daemon.stop() == 0
    again = support.Daemon(zctx, tmp_path, ["--shard", "0/3"]).start()
    try:
        assert support.poll_until(lambda: f"dropped_sessions={len(moved)}" in again.log(), 5), again.log()[-2000:]
        assert again.status()["sessions_live"] == len(live) - len(moved)
    finally:
        assert again.stop() == 0
