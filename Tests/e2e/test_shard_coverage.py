"""Sharded daemons that overlap or leave buckets uncovered say so: each daemon asks the peers of
`shard.peers` for their status on its control thread and reports `shard_conflicts` and
`buckets_uncovered` in its own `status` and a log line; `modalwatch status` over several
`--control` warns in text and JSON."""
from __future__ import annotations

import json
import tempfile

import pytest

import e2e_support as support


def start_fleet(zctx, tmp_path, shards: list[str], peers: int) -> list[support.Daemon]:
    """Daemons with the given `--shard`s, sharing one configuration whose `shard.peers` lists
    `peers` control endpoints (theirs first, each daemon's own included, as one file for every
    daemon would)."""
    folders = [tempfile.mkdtemp(prefix="mw-cov-") for _ in range(peers)]
    controls = [f"ipc://{folder}/control.sock" for folder in folders]
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("shard:\n  peers:\n" + "".join(f"    - {c}\n" for c in controls))
    daemons = []
    for i, shard in enumerate(shards):
        workdir = tmp_path / f"d{i}"
        workdir.mkdir()
        daemon = support.Daemon(zctx, workdir, ["--config", str(config), "--shard", shard], ipc=True)
        daemon.ipc_folder = folders[i]
        daemons.append(daemon.start())
    return daemons


def stop(daemons: list[support.Daemon]) -> None:
    for daemon in daemons:
        assert daemon.stop() == 0, daemon.log()[-2000:]


@pytest.fixture
def same_shard_twice(zctx, tmp_path):
    daemons = start_fleet(zctx, tmp_path, ["0/2", "0/2"], peers=2)
    yield daemons
    stop(daemons)


def test_two_daemons_with_the_same_shard_both_say_so(same_shard_twice):
    a, b = same_shard_twice
    for daemon, other in ((a, b), (b, a)):
        status = daemon.wait_status(lambda s: s.get("shard_conflicts"), timeout=20, what="a shard conflict reported")
        assert status["shard_conflicts"] == [{"daemons": [daemon.control, other.control], "buckets": 128}], status["shard_conflicts"]
        assert status["buckets_uncovered"] == 128
        assert support.poll_until(lambda: "both own 128 bucket(s)" in daemon.log(), 5), daemon.log()[-2000:]
        assert other.control in [line for line in daemon.log().splitlines() if "shard coverage" in line][-1]
        checked = support.run_cli(["status", "--check", "--control", daemon.control])
        text = checked.stdout.decode()
        assert f"warning: {daemon.control} and {other.control} both own 128 bucket(s)" in text, text
        assert checked.returncode == 1, text + checked.stderr.decode()


def test_the_merged_status_warns_of_buckets_owned_twice(zctx, tmp_path):
    """No `shard.peers` here: the command line compares what the daemons it asked say."""
    a, b = (support.Daemon(zctx, tmp_path / name, ["--shard", "0/2"]).start() for name in ("a", "b"))
    try:
        check_merged_warnings(a, b)
    finally:
        stop([a, b])


def check_merged_warnings(a: support.Daemon, b: support.Daemon) -> None:
    args = ["status", "--control", a.control, "--control", b.control]
    merged = support.cli_json([*args, "--json"])
    assert merged["shard_conflicts"] == [{"daemons": [a.control, b.control], "buckets": 128}]
    assert merged["buckets_uncovered"] == 128
    checked = support.run_cli([*args, "--check"])
    text = checked.stdout.decode()
    assert checked.returncode == 1, text + checked.stderr.decode()
    warnings = [line for line in text.splitlines() if line.startswith("warning: ")]
    assert any(a.control in w and b.control in w and "128" in w for w in warnings), text
    assert any("128 of 256 buckets are owned by no daemon" in w for w in warnings), text


def test_buckets_left_uncovered_are_reported(zctx, tmp_path):
    daemons = start_fleet(zctx, tmp_path, ["0/3", "1/3"], peers=3)  # 2/3 is listed and never started
    try:
        for daemon in daemons:
            status = daemon.wait_status(lambda s: s.get("buckets_uncovered") is not None, timeout=20, what="coverage compared")
            assert status["buckets_uncovered"] == 85 and status["shard_conflicts"] == [], status
            assert support.poll_until(lambda: "85 of 256 buckets are owned by no daemon" in daemon.log(), 5), daemon.log()[-2000:]
        merged = support.cli_json(["status", "--json", *[a for d in daemons for a in ("--control", d.control)]])
        assert merged["buckets_uncovered"] == 85 and merged["shard_conflicts"] == []
    finally:
        stop(daemons)


def test_an_exact_cover_reports_nothing(zctx, tmp_path):
    daemons = start_fleet(zctx, tmp_path, ["0/2", "1/2"], peers=2)
    try:
        for daemon in daemons:
            status = daemon.wait_status(lambda s: s.get("buckets_uncovered") is not None, timeout=20, what="coverage compared")
            assert status["buckets_uncovered"] == 0 and status["shard_conflicts"] == [], status
        text = support.run_cli(["status", *[a for d in daemons for a in ("--control", d.control)]]).stdout.decode()
        assert "warning" not in text, text
    finally:
        stop(daemons)
