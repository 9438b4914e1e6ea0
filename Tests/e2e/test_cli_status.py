"""`modalwatch status` says in its text what is wrong, and `status --check` exits by it (interfaces.md,
docs/RELIABILITY.md): 0 for a daemon with nothing to warn of, 1 for a failing history (a PostgreSQL store
whose server is not there), and for a module that failed to load; 3 for a daemon that does not answer.
`/healthz` of the same failing daemon answers 503 with the history's error."""
from __future__ import annotations

import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import e2e_support as support


def status(daemon: support.Daemon, *extra: str):
    result = support.run_cli(["status", "--control", daemon.control, *extra])
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def warnings(text: str) -> list[str]:
    return [line.removeprefix("warning: ") for line in text.splitlines() if line.startswith("warning: ")]


def test_a_healthy_daemon_has_no_warning_and_check_exits_0(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path).start()
    try:
        code, text, err = status(daemon, "--check")
        assert code == 0, text + err
        assert warnings(text) == [], text
        assert any(line.startswith("history") and line.split()[-1] == "ok" for line in text.splitlines()), text
    finally:
        assert daemon.stop() == 0


def test_a_failing_history_is_a_warning_with_its_error_check_exits_1_and_healthz_says_503(zctx, tmp_path):
    # A PostgreSQL store whose server is not running: a socket folder with no server in it.
    nowhere = tempfile.mkdtemp(prefix="mw-nopg-")
    config = tmp_path / "modalwatchd.yaml"
    config.write_text(f'metrics: 127.0.0.1:0\nhistory:\n  store: postgresql\n'
                      f'  postgresql: "host={nowhere} dbname=modalwatch user=modalwatch"\n')
    daemon = support.Daemon(zctx, tmp_path, ["--config", str(config)]).start()
    try:
        daemon.wait_status(lambda s: s["history_state"] == "failing", 10, "the history failing")
        code, text, err = status(daemon)
        assert code == 0, text + err
        found = [w for w in warnings(text) if w.startswith("history failing: ")]
        assert len(found) == 1 and "cannot connect to PostgreSQL" in found[0], text
        assert any(line.startswith("history") and line.split()[-1] == "failing" for line in text.splitlines()), text

        code, text, err = status(daemon, "--check")
        assert code == 1, text + err
        code, _, err = status(daemon, "--check", "--json")
        assert code == 1, err

        base = daemon.status()["endpoints"]["metrics"][0].removesuffix("/metrics")
        try:
            urllib.request.urlopen(base + "/healthz", timeout=5)
            raise AssertionError("/healthz answered 200 while the history fails")
        except urllib.error.HTTPError as error:
            assert error.code == 503
            body = error.read().decode()
            assert body.startswith("the history is failing") and "cannot connect to PostgreSQL" in body, body
            assert body.count("\n") == 1, body
    finally:
        assert daemon.stop() == 0


def test_a_module_that_failed_to_load_is_a_warning_and_check_exits_1(zctx, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "notes.so").write_text("this is a text file, not a library\n")
    daemon = support.Daemon(zctx, tmp_path, ["--rules-dir", str(rules)]).start()
    try:
        code, text, err = status(daemon, "--check")
        assert code == 1, text + err
        found = [w for w in warnings(text) if w.startswith("module failed to load: ")]
        assert len(found) == 1 and "notes.so" in found[0] and "not a loadable shared library" in found[0], text
    finally:
        assert daemon.stop() == 0


def test_check_against_no_daemon_exits_3(tmp_path):
    result = support.run_cli(["status", "--check", "--control", support.free_tcp_endpoint(), "--timeout", "300"], timeout=10)
    assert result.returncode == 3, result.stdout.decode() + result.stderr.decode()
