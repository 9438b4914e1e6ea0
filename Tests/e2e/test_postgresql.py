"""The history in PostgreSQL (scale.md, "One history for every daemon"): three sharded daemons
writing one database, the server away at start, stopped and restarted mid-run, the server's disk
full, and the readers that need no daemon. Real processes, a real PostgreSQL server started by the test.

The disk-full test mounts a small tmpfs for the server's data directory: it needs root (CI runs as
root); elsewhere it skips and says why."""
from __future__ import annotations

import json
import os
import pwd
import grp
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

import e2e_support as support
import postgres_support as pg
import shard_support as shard

pytestmark = pytest.mark.needs_rules("alert-frequency")


@pytest.fixture(scope="module")
def server() -> Iterator[pg.Postgres]:
    postgres = pg.Postgres().start()
    yield postgres
    postgres.destroy()


def check_ids(files: list[Path]) -> set[str]:
    return set(shard.reference_violations(files))


def wait_published(daemon: support.Daemon, events: int, timeout: float = 60.0) -> dict:
    """Until the daemon received `events` events and published every violation it found."""
    last: dict = {}

    def done() -> bool:
        nonlocal last
        last = daemon.status()
        return last["events_received"] >= events and last["violations_published"] == last["violations_found"]

    assert support.poll_until(done, timeout, interval=0.2), support.compact_status(last)
    return last


def wait_stored(daemons: list[support.Daemon], timeout: float = 60.0) -> list[dict]:
    """Until every daemon stored what it published and its spool is empty."""
    last: list[dict] = []

    def done() -> bool:
        nonlocal last
        last = [d.status() for d in daemons]
        return all(s["violations_stored"] == s["violations_published"] and s["violations_spooled"] == 0
                   and s["history_state"] == "ok" for s in last)

    assert support.poll_until(done, timeout, interval=0.2), [{k: s.get(k) for k in ("violations_stored", "violations_published", "violations_spooled", "history_state", "history_error", "violations_recovered", "violations_unstored")} for s in last]
    return last


def test_three_sharded_daemons_store_check_ids_once_in_one_database(zctx, tmp_path, server):
    conninfo = server.make_database()
    files = shard.recorded_streams() + [shard.generate_stream(tmp_path / "generated.ndjson", 20_000, sessions=500, seed=27)]
    reference = check_ids(files)
    assert len(reference) > 1000
    daemons = []
    try:
        for index in range(3):
            folder = tmp_path / f"shard{index}"
            folder.mkdir()
            config = pg.config_file(folder, conninfo)
            daemons.append(support.Daemon(zctx, folder, ["--config", str(config), "--shard", f"{index}/3", "--shard-key", "app"]).start())
        assert all(d.status()["history"].startswith("postgresql: ") for d in daemons)
        # The schema was made once, whoever started first.
        assert server.sql(conninfo, "SELECT string_agg(version::text, ',') FROM modalwatch_schema_version") == "2"
        sent = shard.send(files, [d.events for d in daemons], "--shard-count", "3", "--batch", "64")
        assert sent["events_sent"] == sent["events"], sent
        total = sum(len([line for line in f.read_bytes().splitlines() if line.strip()]) for f in files)
        shard.wait_received(daemons, total)
        statuses = wait_stored(daemons)
        ids = server.stored_ids(conninfo)
        assert len(ids) == len(set(ids)), "an id stored twice"
        assert set(ids) == reference, (len(set(ids) - reference), len(reference - set(ids)))
        assert sum(s["violations_published"] for s in statuses) == len(reference)

        # Readers need no daemon.
        listed = support.run_cli(["violations", "--postgresql", conninfo, "--json", "--limit", "10000"])
        assert listed.returncode == 0, listed.stderr.decode()
        read = [json.loads(line)["id"] for line in listed.stdout.decode().splitlines() if line.strip()]
        assert read == list(reversed(ids)), "newest first, every one"
        app = json.loads(listed.stdout.decode().splitlines()[0])["app"]
        of_app = support.run_cli(["violations", "--postgresql", conninfo, "--json", "--app", app, "--limit", "10000"])
        assert {json.loads(line)["app"] for line in of_app.stdout.decode().splitlines()} == {app}
        report = tmp_path / "report.html"
        made = support.run_cli(["report", "--postgresql", conninfo, "--output", str(report)], timeout=60)
        assert made.returncode == 0, made.stderr.decode()
        assert f"{len(reference):,}" in report.read_text() or str(len(reference)) in report.read_text()
        # And through a daemon's control socket, from the shared history.
        through = support.run_cli(["violations", "--control", daemons[0].control, "--json", "--limit", "10000"])
        assert through.returncode == 0, through.stderr.decode()
        assert len(through.stdout.decode().splitlines()) == len(reference)
    finally:
        shard.stop_all(daemons)


def test_the_server_away_at_start_mid_run_and_restarted_loses_nothing(zctx, tmp_path, server):
    conninfo = server.make_database()
    streams = [shard.generate_stream(tmp_path / f"part{n}.ndjson", 4000, sessions=200, seed=40 + n) for n in range(3)]
    lines = [len([line for line in f.read_bytes().splitlines() if line.strip()]) for f in streams]
    server.stop()
    config = pg.config_file(tmp_path, conninfo)
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(config)]).start()
    try:
        # Refused at start: the daemon runs, publishes, spools, and says so.
        shard.send([streams[0]], [daemon.events])
        wait_published(daemon, lines[0])
        status = daemon.status()
        assert status["history_state"] == "failing", support.compact_status(status)
        assert "cannot connect to PostgreSQL" in (status["history_error"] or "")
        assert status["violations_spooled"] > 0 and status["violations_stored"] == 0
        server.start()
        wait_stored([daemon])
        assert set(server.stored_ids(conninfo)) == check_ids([streams[0]])

        # Lost mid-run (a fast shutdown ends the connection), then restarted.
        server.stop()
        shard.send([streams[1]], [daemon.events])
        wait_published(daemon, lines[0] + lines[1])
        assert support.poll_until(lambda: daemon.status(fresh=False)["history_state"] == "failing"
                                  and daemon.status()["violations_spooled"] > 0, 30)
        server.start()
        wait_stored([daemon])
        # A crash of the server (immediate stop) between two streams.
        server.stop(mode="immediate")
        server.start()
        shard.send([streams[2]], [daemon.events])
        wait_published(daemon, sum(lines))
        status = wait_stored([daemon])[0]
        ids = server.stored_ids(conninfo)
        assert len(ids) == len(set(ids))
        assert set(ids) == check_ids(streams)
        # Nothing lost uncounted: published = stored + counted unstored.
        assert status["violations_published"] == len(ids) + status["violations_unstored"]
        assert status["violations_unstored"] == 0
        assert status["history_outages"] >= 2
        assert status["violations_recovered"] > 0
    finally:
        if daemon.alive:
            assert daemon.stop() == 0
        if not (Path(server.directory) / "data" / "postmaster.pid").exists():
            server.start()


def test_a_configuration_with_a_password_or_without_a_connection_string_is_refused(tmp_path):
    (tmp_path / "a.yaml").write_text("history:\n  store: postgresql\n")
    (tmp_path / "b.yaml").write_text('history:\n  store: postgresql\n  postgresql: "host=/tmp password=secret"\n')
    (tmp_path / "c.yaml").write_text("history:\n  store: mysql\n")
    for name, expected in (("a", "history.store"), ("b", "password"), ("c", "sqlite or postgresql")):
        # The connection string is read at start (libpq's parser): `b` is refused then, before any socket is bound.
        check = ["--check-config"] if name != "b" else ["--state-dir", str(tmp_path / "state")]
        run = subprocess.run([str(support.daemon_path()), "--config", str(tmp_path / f"{name}.yaml"), *check,
                              *support.rules_dir_args()], capture_output=True, timeout=30)
        text = (run.stdout + run.stderr).decode()
        assert run.returncode != 0 and expected in text, (name, run.returncode, text)
        assert "secret" not in text


def test_a_server_away_at_start_is_said_in_status_until_it_comes(zctx, tmp_path, server):
    conninfo = server.make_database()
    server.stop()
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(pg.config_file(tmp_path, conninfo))])
    try:
        daemon.start()
        status = daemon.status()
        assert status["history_state"] == "failing" and status["history_healthy"] is False, support.compact_status(status)
        assert "cannot connect to PostgreSQL" in status["history_error"]
        server.start()
        # Nothing to write: the daemon connects again by itself, and makes the schema.
        assert support.poll_until(lambda: daemon.status(fresh=False)["history_state"] == "ok", 15)
        assert server.sql(conninfo, "SELECT max(version) FROM modalwatch_schema_version") == "2"
    finally:
        if daemon.alive:
            assert daemon.stop() == 0
        if not (Path(server.directory) / "data" / "postmaster.pid").exists():
            server.start()


def fill_leaving(fs: Path, room: int) -> Path:
    """A filler file on `fs` that leaves about `room` bytes free (the server's own files stay as they are)."""
    filler = fs / "filler"
    free = os.statvfs(fs).f_bavail * os.statvfs(fs).f_frsize
    chunk = b"\0" * 65536
    with open(filler, "wb", buffering=0) as f:
        left = max(free - room, 0)
        while left > 0:
            try:
                left -= f.write(chunk[:min(left, len(chunk))])
            except OSError:
                break
    return filler


@pytest.fixture
def server_on_small_disk() -> Iterator[tuple[pg.Postgres, Path]]:
    """A server of its own whose data directory is a 96 MiB tmpfs (owned by the server's user)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root; CI runs these as root")
    postgres = pg.Postgres()
    data = Path(postgres.directory) / "data"
    data.mkdir()
    user = pwd.getpwnam("nobody").pw_uid
    group = grp.getgrnam("nogroup").gr_gid
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size=96m,mode=0700,uid={user},gid={group}", "tmpfs", str(data)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield postgres.start(), data
    finally:
        subprocess.run(["sh", str(pg.SCRIPT), "stop", postgres.directory], capture_output=True, timeout=60,
                       env={**os.environ, "MODE": "immediate"})
        subprocess.run(["umount", "-l", str(data)], capture_output=True)
        postgres.destroy()


def test_the_servers_disk_full_spools_and_writes_back_in_order_when_it_has_room(zctx, tmp_path, server_on_small_disk):
    server, data = server_on_small_disk
    conninfo = server.make_database()
    parts = [shard.generate_stream(tmp_path / f"part{n}.ndjson", 2000, sessions=100, seed=60 + n) for n in range(14)]
    lines = [len([line for line in f.read_bytes().splitlines() if line.strip()]) for f in parts]
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(pg.config_file(tmp_path, conninfo))]).start()
    try:
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/", "diag/-/history"])
        sender = support.EventSender(zctx, daemon.events)
        subscriber.warm_up(sender)
        sender.close()
        shard.send([parts[0]], [daemon.events])
        wait_stored([daemon])
        # The server's disk fills (its WAL segments are already made; a new table page is not).
        filler = fill_leaving(data, 0)
        sent = 1
        status: dict = {}
        while sent < len(parts) - 2:
            shard.send([parts[sent]], [daemon.events])
            sent += 1
            status = wait_published(daemon, sum(lines[:sent]))
            if status["history_state"] == "failing" and status["violations_spooled"] > 0:
                break
        else:
            pytest.fail(f"the server never ran out of space: {support.compact_status(status)}")
        # Still judging and publishing while the server refuses to write: one more part, all published.
        shard.send([parts[sent]], [daemon.events])
        sent += 1
        status = wait_published(daemon, sum(lines[:sent]))
        assert status["history_state"] == "failing" and status["history_healthy"] is False, support.compact_status(status)
        assert "53100" in (status["history_error"] or ""), status["history_error"]
        assert status["violations_stored"] + status["violations_spooled"] + status["violations_unstored"] \
            == status["violations_published"], support.compact_status(status)
        spooled = status["violations_spooled"]
        assert spooled > 0

        filler.unlink()
        # Room again; a new part at once: the spool goes in first, then what came after it.
        shard.send([parts[sent]], [daemon.events])
        sent += 1
        wait_published(daemon, sum(lines[:sent]))
        after = wait_stored([daemon], timeout=30)[0]
        assert after["violations_recovered"] - status["violations_recovered"] >= spooled, support.compact_status(after)
        ids = server.stored_ids(conninfo)
        # Nothing lost uncounted: published = stored + counted unstored.
        assert after["violations_published"] == len(ids) + after["violations_unstored"], support.compact_status(after)
        assert len(ids) == len(set(ids)), "an id stored twice"
        reference = check_ids(parts[:sent])
        assert set(ids) <= reference
        if after["violations_unstored"] == 0:
            assert set(ids) == reference
        # Written back in order: the history's order (seq) is the order published.
        messages = subscriber.collect(lambda ms: len(subscriber.violations(ms)) >= after["violations_published"], timeout=10)
        received = [m.body["id"] for m in subscriber.violations(messages)]
        assert len(received) == after["violations_published"]
        stored = set(ids)
        assert ids == [i for i in received if i in stored], "the spool went back in the order published"
        subscriber.close()
    finally:
        if daemon.alive:
            assert daemon.stop() == 0, daemon.log()


def server_processes(server: pg.Postgres) -> list[int]:
    """The postmaster and every process it started."""
    postmaster = int((Path(server.directory) / "data" / "postmaster.pid").read_text().split()[0])
    children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
    return [postmaster] + [int(pid) for pid in children]


def hang(server: pg.Postgres) -> list[int]:
    """Stops the server's processes (SIGSTOP): the kernel still accepts and acknowledges, nothing answers."""
    pids = server_processes(server)
    for pid in pids:
        os.kill(pid, 19)
    return pids


def resume(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, 18)
        except ProcessLookupError:
            pass


def test_a_hung_server_is_seen_spooled_and_counted_and_a_stop_ends_in_time(zctx, tmp_path, server):
    """A server whose processes stop answering (a hung host): each call of the daemon's waits at most
    its deadline, the store goes failing and the spool takes the violations, `status` and
    `violations` answer meanwhile, and once the server answers again everything is stored. A stop
    while it hangs ends in time (exit 0) with what was not stored spooled, and the next start writes
    it back: the history then holds exactly the violations `check` finds, each once."""
    conninfo = server.make_database()
    streams = [shard.generate_stream(tmp_path / f"hung{n}.ndjson", 3000, sessions=150, seed=60 + n) for n in range(3)]
    lines = [len([line for line in f.read_bytes().splitlines() if line.strip()]) for f in streams]
    config = pg.config_file(tmp_path, conninfo)
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(config)]).start()
    pids: list[int] = []
    try:
        shard.send([streams[0]], [daemon.events])
        wait_published(daemon, lines[0])
        wait_stored([daemon])

        pids = hang(server)
        shard.send([streams[1]], [daemon.events])
        wait_published(daemon, lines[0] + lines[1], timeout=30)
        assert support.poll_until(lambda: daemon.status(fresh=False)["history_state"] == "failing", 20, interval=0.2), \
            support.compact_status(daemon.status())
        status = daemon.status()
        assert status["violations_spooled"] > 0, support.compact_status(status)
        # The writer's call gave up at its deadline; a reconnection then times out as well.
        assert any(said in (status["history_error"] or "") for said in ("did not answer", "timeout expired")), \
            status["history_error"]
        reply = daemon.request({"cmd": "violations", "limit": 5}, timeout=10)  # a reader's deadline, not a hang
        assert "ok" in reply
        assert daemon.request({"cmd": "status"}, timeout=2)["ok"] is True
        resume(pids)
        pids = []
        wait_stored([daemon], timeout=90)

        # Hung again, then stopped: the stop ends in time, with the rest spooled.
        pids = hang(server)
        shard.send([streams[2]], [daemon.events])
        wait_published(daemon, sum(lines), timeout=30)
        code = daemon.stop(timeout=30)
        assert code == 0, daemon.log()[-3000:]
    finally:
        resume(pids)
        if daemon.alive:
            daemon.stop()
    expected = check_ids(streams)
    again = support.Daemon(zctx, tmp_path, ["--config", str(config)]).start()
    try:
        # The spool the stop left is written back at this start.
        assert support.poll_until(lambda: set(server.stored_ids(conninfo)) == expected
                                  and again.status()["violations_spooled"] == 0, 90, interval=0.5), \
            support.compact_status(again.status())
        assert again.status()["violations_recovered"] > 0
        ids = server.stored_ids(conninfo)
        assert len(ids) == len(set(ids))
        assert set(ids) == expected
    finally:
        assert again.stop() == 0
