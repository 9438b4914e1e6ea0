"""`modalwatch history export` and `history import` (docs/cli.md): the whole history out of SQLite or
PostgreSQL as NDJSON or CSV, with no 10,000 cap; an SQLite history copied into PostgreSQL, a second run
inserting none; a state directory the user may not read, and a PostgreSQL role that does not exist,
answered with what to do. Real daemons, a real PostgreSQL server started by the test, the CLI run as
`nobody` for the permission case."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

import e2e_support as support
import postgres_support as pg

pytestmark = pytest.mark.needs_rules("alert-frequency")

DEMO = support.PACKAGE_ROOT / "demo" / "stream.ndjson"
# The view's columns, in order (docs/spec/history.md, "The table").
COLUMNS = ["seq", "id", "ts", "observed", "rule", "module", "severity", "edition", "app", "session",
           "subject", "locale", "fingerprint", "message", "suggestion", "json"]


@pytest.fixture(scope="module")
def server() -> Iterator[pg.Postgres]:
    postgres = pg.Postgres().start()
    yield postgres
    postgres.destroy()


@pytest.fixture(scope="module")
def demo_state(zctx, tmp_path_factory) -> Path:
    """A state directory whose history a daemon wrote from the demo stream (the daemon stopped)."""
    folder = tmp_path_factory.mktemp("demo")
    daemon = support.Daemon(zctx, folder).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        events = [json.loads(line) for line in DEMO.read_text().splitlines() if line.strip()]
        sender.events(events)
        daemon.wait_status(lambda s: s["events_received"] >= len(events) and s["violations_found"] > 0
                           and s["violations_stored"] == s["violations_found"], timeout=20, what="every violation stored")
        sender.close()
    finally:
        assert daemon.stop() == 0, daemon.log()
    return folder / "state"


def cli(args: list[str], timeout: float = 60.0) -> subprocess.CompletedProcess:
    return support.run_cli(args, timeout=timeout)


def ok(args: list[str], timeout: float = 60.0) -> subprocess.CompletedProcess:
    result = cli(args, timeout)
    assert result.returncode == 0, (args, result.stderr.decode())
    return result


def listed_ids(*source: str) -> list[str]:
    """The ids `modalwatch violations --json --limit 10000` lists, newest first."""
    result = ok(["violations", *source, "--json", "--limit", "10000"])
    return [json.loads(line)["id"] for line in result.stdout.decode().splitlines() if line.strip()]


def exported(*source: str, fmt: str = "ndjson") -> tuple[bytes, str]:
    result = ok(["history", "export", *source, "--format", fmt])
    return result.stdout, result.stderr.decode()


def fill(state: Path, rows: int) -> int:
    """Grows the history to `rows` violations with SQL (docs/spec/history.md's table), copies of its newest with
    fresh ids in their JSON too, later times; the count it ends with."""
    db = sqlite3.connect(state / "history.sqlite", timeout=10)
    try:
        count = db.execute("SELECT COUNT(*) FROM violation_rows").fetchone()[0]
        newest = db.execute("SELECT ts, observed, rule, severity, app, session, fingerprint, json FROM violation_rows "
                            "ORDER BY seq DESC LIMIT 100").fetchall()
        step = 0
        while count < rows:
            step += 1
            batch = []
            for ts, observed, rule, severity, app, session, fingerprint, text in newest[: rows - count]:
                violation = json.loads(text)
                violation["id"] = os.urandom(16).hex()
                violation["ts"], violation["observed"] = ts + step, observed + step
                batch.append((violation["id"], ts + step, observed + step, rule, severity, app, session, fingerprint,
                              json.dumps(violation, separators=(",", ":"), ensure_ascii=False)))
            db.executemany("INSERT INTO violation_rows (id, ts, observed, rule, severity, app, session, fingerprint, json) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
            count += len(batch)
        db.commit()
        return db.execute("SELECT COUNT(*) FROM violation_rows").fetchone()[0]
    finally:
        db.close()


def csv_records(data: bytes) -> list[dict[str, str]]:
    reader = csv.reader(io.StringIO(data.decode(), newline=""))
    header = next(reader)
    assert header == COLUMNS
    return [dict(zip(header, record, strict=True)) for record in reader]


def test_export_gives_every_violation_as_published_newest_first(demo_state):
    ids = listed_ids("--state-dir", str(demo_state))
    assert len(ids) > 10
    data, summary = exported("--state-dir", str(demo_state))
    lines = data.decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == ids, "the ids violations --json lists, in its order"
    # Each line is the violation exactly as stored (as published): the json column's bytes.
    db = sqlite3.connect(f"file:{demo_state / 'history.sqlite'}?mode=ro", uri=True)
    stored = [row[0] for row in db.execute("SELECT json FROM violations ORDER BY seq DESC")]
    db.close()
    assert lines == stored
    # The same objects `violations --json` prints (it writes them again from the parsed value).
    listed = ok(["violations", "--state-dir", str(demo_state), "--json", "--limit", "10000"]).stdout.decode().splitlines()
    assert [json.loads(line) for line in lines] == [json.loads(line) for line in listed]
    assert f"exported {len(ids)} violations (ndjson)" in summary, summary


def test_csv_has_the_documented_columns_and_every_row(demo_state):
    data, _ = exported("--state-dir", str(demo_state), fmt="csv")
    assert data.startswith(b"seq,id,ts,") and b"\r\n" in data
    records = csv_records(data)
    db = sqlite3.connect(f"file:{demo_state / 'history.sqlite'}?mode=ro", uri=True)
    rows = db.execute(f"SELECT {', '.join(COLUMNS)} FROM violations ORDER BY seq DESC").fetchall()
    db.close()
    assert len(records) == len(rows)
    for record, row in zip(records, rows):
        expected = {c: "" if v is None else str(v) for c, v in zip(COLUMNS, row)}
        assert record == expected
    # The json column (commas and quotes in every one) reads back as it is stored.
    assert all(json.loads(r["json"])["id"] == r["id"] for r in records)


def test_more_than_10000_rows_are_exported(demo_state, tmp_path):
    state = tmp_path / "state"
    shutil.copytree(demo_state, state)
    total = fill(state, 12_345)
    assert total == 12_345
    assert len(listed_ids("--state-dir", str(state))) == 10_000, "violations stops at its limit"
    output = tmp_path / "all.ndjson"
    result = ok(["history", "export", "--state-dir", str(state), "--output", str(output)])
    lines = output.read_text().splitlines()
    assert len(lines) == total and len({json.loads(line)["id"] for line in lines}) == total
    assert not (tmp_path / "all.ndjson.partial").exists()
    # Piped stderr: no progress line below 100,000 rows, one summary.
    assert result.stderr.decode().count("\n") == 1, result.stderr.decode()
    data, _ = exported("--state-dir", str(state), fmt="csv")
    assert len(csv_records(data)) == total
    # --since: only what was found within the window (the oldest 345 moved 30 days back, in order).
    db = sqlite3.connect(state / "history.sqlite")
    db.execute("UPDATE violation_rows SET observed = observed - 30 * 86400000 WHERE seq IN "
               "(SELECT seq FROM violation_rows ORDER BY seq LIMIT 345)")
    db.commit()
    db.close()
    recent, _ = exported("--state-dir", str(state), "--since", "7d")
    assert len(recent.splitlines()) == total - 345


def test_import_into_postgresql_then_again_inserts_none(demo_state, server):
    conninfo = server.make_database()  # empty: the import makes the schema, as the daemon does
    ids = listed_ids("--state-dir", str(demo_state))
    first = ok(["history", "import", "--state-dir", str(demo_state), "--postgresql", conninfo, "--batch", "25"])
    summary = first.stderr.decode().strip().splitlines()[-1]
    assert f"{len(ids)} read, {len(ids)} inserted, 0 already there" in summary, summary
    assert listed_ids("--postgresql", conninfo) == ids, "the same ids, newest first"
    # The same export from either store.
    assert exported("--postgresql", conninfo)[0] == exported("--state-dir", str(demo_state))[0]
    pg_csv = csv_records(exported("--postgresql", conninfo, fmt="csv")[0])
    assert [r["id"] for r in pg_csv] == ids
    again = ok(["history", "import", "--state-dir", str(demo_state), "--postgresql", conninfo])
    summary = again.stderr.decode().strip().splitlines()[-1]
    assert f"{len(ids)} read, 0 inserted, {len(ids)} already there" in summary, summary
    assert len(server.stored_ids(conninfo)) == len(ids)


def as_nobody(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                           str(support.cli_path()), *args], capture_output=True, timeout=30)


@pytest.mark.skipif(os.geteuid() != 0, reason="runs the CLI as nobody: needs root")
@pytest.mark.parametrize("mode", [0o000, 0o700])
def test_a_state_directory_the_user_may_not_read_says_what_to_do(demo_state, tmp_path, mode, request):
    # The CLI must be reachable by nobody; the copy is in a folder nobody can enter (pytest's own are 0700:
    # a folder of its own under /tmp, so that only the state directory's mode stands in the way).
    if as_nobody(["--version"]).returncode != 0:
        pytest.skip("the built CLI is not executable by nobody (a parent folder is closed)")
    folder = Path(tempfile.mkdtemp(prefix="mw-perm-"))
    folder.chmod(0o755)
    request.addfinalizer(lambda: shutil.rmtree(folder, ignore_errors=True))
    state = folder / "state"
    shutil.copytree(demo_state, state)
    state.chmod(mode)
    path = state / "history.sqlite"
    for args in (["violations", "--state-dir", str(state)], ["history", "export", "--state-dir", str(state)],
                 ["report", "--state-dir", str(state), "--output", str(folder / "r.html")]):
        result = as_nobody(args)
        lines = result.stderr.decode().splitlines()
        assert result.returncode == 2, (args, result.stderr.decode())
        assert len(lines) == 1, lines
        assert f"cannot read {path}: permission denied" in lines[0], lines
        assert "set `history.group: GROUP` in the daemon's configuration and join that group, or run as the root user" in lines[0]
        assert "no history at" not in lines[0]


def test_a_role_that_does_not_exist_points_to_reader_roles_which_then_read(demo_state, server):
    conninfo = server.make_database()
    ok(["history", "import", "--state-dir", str(demo_state), "--postgresql", conninfo])
    as_alice = conninfo.replace("user=modalwatch", "user=alice")
    refused = cli(["violations", "--postgresql", as_alice])
    assert refused.returncode == 2
    line = refused.stderr.decode().strip()
    assert 'role "alice" does not exist' in line and '"Read-only roles" in docs/postgresql.md' in line, line
    # docs/postgresql.md's statements for a reader role, as written there.
    doc = (support.PACKAGE_ROOT / "docs" / "postgresql.md").read_text()
    section = doc.split("## Read-only roles", 1)[1]
    block = section.split("```sql", 1)[1].split("```", 1)[0]
    database = re.search(r"dbname=(\w+)", conninfo).group(1)
    statements = block.replace("ON DATABASE modalwatch ", f"ON DATABASE {database} ")
    result = subprocess.run(["psql", conninfo, "-v", "ON_ERROR_STOP=1", "-q"], input=statements.encode(),
                            capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    assert listed_ids("--postgresql", as_alice) == listed_ids("--state-dir", str(demo_state))
    assert len(exported("--postgresql", as_alice)[0].splitlines()) == len(listed_ids("--state-dir", str(demo_state)))
    # A reader may not write.
    denied = subprocess.run(["psql", as_alice, "-qAtc", "DELETE FROM modalwatch_violation_rows"], capture_output=True, timeout=30)
    assert denied.returncode != 0 and b"permission denied" in denied.stderr


@pytest.mark.parametrize("args", [
    ["history", "export"],
    ["history", "export", "--state-dir", "/tmp", "--postgresql", "host=/tmp"],
    ["history", "export", "--state-dir", "/tmp", "--format", "xml"],
    ["history", "export", "--state-dir", "/tmp", "--since", "yesterday"],
    ["history", "export", "--state-dir", "/tmp", "--output", ""],
    ["history", "import", "--state-dir", "/tmp"],
    ["history", "import", "--postgresql", "host=/tmp"],
    ["history", "import", "--state-dir", "/tmp", "--postgresql", "host=/tmp", "--batch", "0"],
], ids=lambda a: " ".join(a))
def test_bad_usage_exits_2_with_the_usage(args):
    result = cli(args)
    assert result.returncode == 2, result.stderr.decode()
    assert "Usage:" in result.stderr.decode()
    assert result.stdout == b""


def test_a_missing_history_is_one_line_and_exit_2(tmp_path):
    for args in (["history", "export", "--state-dir", str(tmp_path)],
                 ["history", "import", "--state-dir", str(tmp_path), "--postgresql", "host=/nonexistent dbname=x"]):
        result = cli(args)
        assert result.returncode == 2
        assert result.stderr.decode().splitlines() == [
            f"modalwatch: no history at {tmp_path / 'history.sqlite'}; is --state-dir the daemon's state directory?"]
