"""The history as SQL users see it (docs/spec/history.md): the five questions of its examples, asked with the
`sqlite3` shell and Python's `sqlite3` of a history the daemon wrote, answer what `modalwatch violations` says;
the PostgreSQL history has the same columns, in the same order, and answers the same. Real daemons, a real
PostgreSQL server started by the test."""
from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

import e2e_support as support
import postgres_support as pg

pytestmark = pytest.mark.needs_rules("alert-frequency")

DEMO = support.PACKAGE_ROOT / "demo" / "stream.ndjson"
SCHEMA = support.PACKAGE_ROOT / "docs" / "spec" / "history.md"


def demo_events() -> list[dict]:
    """The demo stream, its first session in German (a locale for the `locale` column)."""
    events = [json.loads(line) for line in DEMO.read_text().splitlines() if line.strip()]
    first = next(e for e in events if e["type"] == "session.start")
    first["locale"] = "de-DE"
    return events


def questions(table: str, hour_since_ms: int) -> list[str]:
    """The five questions of docs/spec/history.md, in the table's name, the hour as a literal (so both stores agree)."""
    found = [block for block in SCHEMA.read_text().split("```sql")[1:]]
    text = found[1].split("```")[0]
    statements = [s.strip() for s in text.split(";") if s.strip()]
    statements = ["\n".join(line for line in s.splitlines() if not line.strip().startswith("--")).strip() for s in statements]
    assert len(statements) == 5, statements
    statements[3] = statements[3].replace("(strftime('%s', 'now') - 3600) * 1000", str(hour_since_ms))
    return [s.replace("FROM violations", f"FROM {table}") for s in statements]


def run_demo(zctx, folder: Path, extra: list[str]) -> support.Daemon:
    daemon = support.Daemon(zctx, folder, extra).start()
    sender = support.EventSender(zctx, daemon.events)
    sender.warm_up(daemon)
    events = demo_events()
    sender.events(events)
    daemon.wait_status(lambda s: s["events_received"] >= len(events) and s["violations_found"] > 0
                       and s["violations_stored"] == s["violations_found"], timeout=20, what="every violation stored")
    sender.close()
    return daemon


def cli_violations(args: list[str]) -> list[dict]:
    result = support.run_cli(["violations", "--json", "--limit", "1000", *args])
    assert result.returncode == 0, result.stderr.decode()
    return [json.loads(line) for line in result.stdout.decode().splitlines()]


def test_the_five_questions_on_a_history_the_daemon_wrote(zctx, tmp_path):
    daemon = run_demo(zctx, tmp_path, [])
    try:
        state = daemon.workdir / "state"
        history = state / "history.sqlite"
        published = cli_violations(["--state-dir", str(state)])
        assert len(published) >= 10
        hour = min(v["observed"] for v in published) - 1
        db = sqlite3.connect(f"file:{history}?mode=ro", uri=True, timeout=10)
        answers = [db.execute(q).fetchall() for q in questions("violations", hour)]

        # 1. By rule: the CLI's counts.
        by_rule: dict[str, int] = {}
        for v in published:
            by_rule[v["rule"]] = by_rule.get(v["rule"], 0) + 1
        assert dict(answers[0]) == by_rule
        # 2. The newest ten of an app, newest first, with their messages.
        app = "com.example.mail"
        newest = [v for v in published if v["app"] == app][:10]
        assert newest, {v["app"] for v in published}
        assert [(row[2], row[3]) for row in answers[1]] == [(v["rule"], v["message"]) for v in newest]
        # 3. A session's, oldest first (the example's session id is replaced by one the stream has).
        session = published[-1]["session"]
        rows = db.execute(questions("violations", hour)[2].replace("'S-1f2e'", "?"), (session,)).fetchall()
        mine = [v for v in reversed(published) if v["session"] == session]
        assert rows == [(v["ts"], v["rule"], v["subject"], v["suggestion"]) for v in mine]
        # 4. Errors since the hour: every error.
        errors: dict[tuple[str, str], int] = {}
        for v in published:
            if v["severity"] == "error":
                errors[(v["app"], v["rule"])] = errors.get((v["app"], v["rule"]), 0) + 1
        assert {(a, r): n for a, r, n in answers[3]} == errors
        # 5. By language: the German session's findings carry de-DE.
        locales = {row[0] for row in answers[4]}
        assert "de-DE" in locales and sum(row[2] for row in answers[4]) == len(published), answers[4]

        # The generated columns are the published fields, for every row.
        for (seq, fields), v in zip(db.execute("SELECT seq, json_array(id, module, edition, subject, locale, message, suggestion, fingerprint) "
                                               "FROM violations ORDER BY seq DESC"), published):
            assert json.loads(fields) == [v["id"], v["module"], v["edition"], v.get("subject"), v.get("locale"), v["message"],
                                          v.get("suggestion"), v["fingerprint"]], seq
        db.close()

        # The daemon's file has exactly the schema docs/spec/history.md gives (its first SQL block).
        spec = sqlite3.connect(":memory:")
        spec.executescript(SCHEMA.read_text().split("```sql", 1)[1].split("```", 1)[0])
        shape = lambda c: ([tuple(r) for r in c.execute("PRAGMA table_xinfo(violations)")],
                           sorted(tuple(r) for r in c.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index'")))
        daemon_db = sqlite3.connect(f"file:{history}?mode=ro", uri=True, timeout=10)
        assert shape(daemon_db) == shape(spec)
        assert daemon_db.execute("PRAGMA user_version").fetchone() == (2,)
        daemon_db.close()

        # The sqlite3 shell answers question 1 the same (any tool reads the file).
        shell = shutil.which("sqlite3")
        if shell:
            result = subprocess.run([shell, f"file:{history}?mode=ro", questions("violations", hour)[0]], capture_output=True, timeout=20)
            assert result.returncode == 0, result.stderr.decode()
            assert {line.split("|")[0]: int(line.split("|")[1]) for line in result.stdout.decode().splitlines()} == by_rule
    finally:
        assert daemon.stop() == 0


@pytest.fixture(scope="module")
def server():
    postgres = pg.Postgres().start()
    yield postgres
    postgres.destroy()


def test_postgresql_has_the_same_columns_and_answers_the_same(zctx, tmp_path, server):
    conninfo = server.make_database()
    (tmp_path / "pg").mkdir()
    (tmp_path / "lite").mkdir()
    on_pg = run_demo(zctx, tmp_path / "pg", ["--config", str(pg.config_file(tmp_path / "pg", conninfo))])
    on_lite = run_demo(zctx, tmp_path / "lite", [])
    try:
        state = on_lite.workdir / "state"
        db = sqlite3.connect(f"file:{state / 'history.sqlite'}?mode=ro", uri=True, timeout=10)
        sqlite_columns = [row[1] for row in db.execute("PRAGMA table_xinfo(violations)")]
        pg_columns = server.sql(conninfo, "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns "
                                          "WHERE table_name = 'modalwatch_violations'").split(",")
        assert sqlite_columns == pg_columns, (sqlite_columns, pg_columns)
        assert sqlite_columns[:4] == ["seq", "id", "ts", "observed"] and sqlite_columns[-1] == "json"

        # The same stream judged by both: the same answers, but for the times each daemon observed.
        published = cli_violations(["--state-dir", str(state)])
        hour = min(v["observed"] for v in published) - 3_600_000
        for index, (lite_q, pg_q) in enumerate(zip(questions("violations", hour), questions("modalwatch_violations", hour))):
            if index == 1:
                continue  # carries `seq` and `observed`, which differ between the two daemons
            lite = sorted("|".join("" if c is None else str(c) for c in row) for row in db.execute(lite_q))
            on_server = sorted(server.sql(conninfo, pg_q).splitlines())
            assert lite == on_server, (index, lite, on_server)
        db.close()
        # One reader for both: the CLI prints the same violations from either store.
        from_pg = cli_violations(["--postgresql", conninfo])
        strip = lambda vs: [{k: v for k, v in x.items() if k != "observed"} for x in vs]
        assert strip(from_pg) == strip(published)
    finally:
        assert on_pg.stop() == 0
        assert on_lite.stop() == 0
