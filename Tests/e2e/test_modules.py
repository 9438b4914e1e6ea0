"""Rule modules in the real daemon: a module written in plain C, and broken modules.

The C module (Examples/long-modal/long_modal.c) is compiled here with the
system C compiler and loaded by modalwatchd through --rules-dir, next to the
built-in Swift modules; its violation arrives on a pyzmq SUB socket. A folder
of broken modules yields one clear line per file while the daemon runs with
the rest.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import e2e_support as support

ROOT = Path(__file__).resolve().parents[2]
HEADER_DIR = ROOT / "Sources" / "ModalwatchABI" / "include"
T0 = 1_732_290_000_000


def compile_module(source: Path | str, output: Path, name: str = "module.c") -> Path:
    """Compiles one C file (a path, or source text) into a shared library with the system C compiler."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.fail("no C compiler: install gcc (scripts/test.sh does)")
    if isinstance(source, str):
        path = output.parent / name
        path.write_text(source)
        source = path
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-I", str(HEADER_DIR), str(source), "-o", str(output)],
                   check=True, capture_output=True, timeout=60)
    return output


def test_a_module_written_in_plain_c_runs_in_the_daemon(zctx, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    compile_module(ROOT / "Examples" / "long-modal" / "long_modal.c", rules / "long_modal.so")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--rules-dir", str(rules)]).start()
    try:
        status = daemon.status()
        names = {m["name"] for m in status["modules"]}
        assert "examples" in names, status["modules"]
        assert status["module_failures"] == []
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=("violation/com.example.c/modal-lingering",))
        subscriber.warm_up(sender)
        sender.events([
            {"v": 1, "type": "session.start", "session": "C1", "ts": T0, "app": "com.example.c"},
            {"v": 1, "type": "modal.presented", "session": "C1", "ts": T0 + 1000, "id": "compose", "title": "New Message",
             "buttons": [{"title": "Cancel", "role": "cancel"}, {"title": "Send", "role": "done"}]},
            {"v": 1, "type": "nav.push", "session": "C1", "ts": T0 + 60_000, "screen": "To"},
            {"v": 1, "type": "nav.pop", "session": "C1", "ts": T0 + 11 * 60_000 + 1000},
        ])
        got = subscriber.collect(lambda m: len(subscriber.violations(m)) >= 1, timeout=5.0)
        violations = [m.body for m in subscriber.violations(got)]
        assert len(violations) == 1, violations
        v = violations[0]
        assert (v["rule"], v["module"], v["subject"], v["app"], v["session"]) == \
            ("modal-lingering", "examples", "compose", "com.example.c", "C1")
        assert v["ts"] == T0 + 11 * 60_000 + 1000
        # the same stream offline gives the same violation
        stream = tmp_path / "stream.ndjson"
        stream.write_text("\n".join(support.encode(e).decode() for e in [
            {"v": 1, "type": "session.start", "session": "C1", "ts": T0, "app": "com.example.c"},
            {"v": 1, "type": "modal.presented", "session": "C1", "ts": T0 + 1000, "id": "compose", "title": "New Message",
             "buttons": [{"title": "Cancel", "role": "cancel"}, {"title": "Send", "role": "done"}]},
            {"v": 1, "type": "nav.push", "session": "C1", "ts": T0 + 60_000, "screen": "To"},
            {"v": 1, "type": "nav.pop", "session": "C1", "ts": T0 + 11 * 60_000 + 1000},
        ]) + "\n")
        code, offline, err = support.check_json(stream, "--rules-dir", str(rules), "--fail-on", "error")
        lingering = [support.without_observed(o) for o in offline if o["rule"] == "modal-lingering"]
        assert lingering == [support.without_observed(v)], err
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()[-3000:]


BROKEN_MAJOR = """
#include "modalwatch_module.h"
static const mw_module M = { 2, 0, "future", "9.0.0", 0, 0, 0, 0 };
const mw_module *modalwatch_module(void) { return &M; }
"""

NO_ENTRY = """
int not_the_entry(void) { return 42; }
"""

GOOD = """
#include "modalwatch_module.h"
static void judge(const mw_call *call) {
    mw_report r = {0};
    r.subject = call->event->id;
    r.message.ptr = "a sheet"; r.message.len = 7;
    call->host->report(call->ctx, &r);
}
static const mw_example EX[] = {
    { "a sheet", MW_EDITION_ALL, 1, "{\\"v\\":1,\\"type\\":\\"sheet.presented\\",\\"session\\":\\"S\\",\\"ts\\":1,\\"id\\":\\"s\\"}" },
    { "no sheet", MW_EDITION_ALL, 0, "{\\"v\\":1,\\"type\\":\\"user.action\\",\\"session\\":\\"S\\",\\"ts\\":1}" },
};
static const mw_rule RULES[] = {{
    "any-sheet", 1, MW_SEVERITY_INFO, MW_EDITION_ALL, MW_EVENT_BIT(MW_EVENT_SHEET_PRESENTED), MW_FIRE_ONCE_PER_SUBJECT,
    0, 0, "Any sheet.", "Test", "test", EX, 2, 0, judge
}};
static const mw_module M = { MW_ABI_MAJOR, MW_ABI_MINOR, "goodtest", "1.0.0", RULES, 1, 0, 0 };
const mw_module *modalwatch_module(void) { return &M; }
"""


def test_broken_modules_get_one_line_each_and_the_rest_run(zctx, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    compile_module(BROKEN_MAJOR, rules / "future.so", "future.c")
    compile_module(NO_ENTRY, rules / "noentry.so", "noentry.c")
    compile_module(GOOD, rules / "good.so", "good.c")
    (rules / "notes.so").write_text("this is a text file, not a library\n")
    for leftover in rules.glob("*.c"):
        leftover.unlink()

    check = subprocess.run([str(support.daemon_path()), "--check-config", "--rules-dir", str(rules)],
                           capture_output=True, timeout=30)
    assert check.returncode == 1, check.stdout.decode() + check.stderr.decode()

    daemon = support.Daemon(zctx, tmp_path, extra_args=["--rules-dir", str(rules)]).start()
    try:
        status = daemon.status()
        failures = status["module_failures"]
        assert len(failures) == 3, failures
        by_file = {Path(line.split(":", 1)[0]).name: line for line in failures}
        assert set(by_file) == {"future.so", "noentry.so", "notes.so"}
        assert "rule ABI 2.0" in by_file["future.so"]
        assert "no entry symbol 'modalwatch_module'" in by_file["noentry.so"]
        assert "not a loadable shared library" in by_file["notes.so"]
        names = {m["name"] for m in status["modules"]}
        assert {"goodtest", "overuse", "modality", "alert-content", "action-sheet"} <= names
        log = daemon.log()
        for name in ("future.so", "noentry.so", "notes.so"):
            assert sum(1 for line in log.splitlines() if name in line and "error" in line) == 1, log
        # the good module in the same folder judges events
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=("violation/com.example.g/any-sheet",))
        subscriber.warm_up(sender)
        sender.events([
            {"v": 1, "type": "session.start", "session": "G1", "ts": T0, "app": "com.example.g"},
            {"v": 1, "type": "sheet.presented", "session": "G1", "ts": T0 + 10, "id": "sh1",
             "buttons": [{"title": "Delete", "style": "destructive"}, {"title": "Cancel", "style": "cancel"}]},
        ])
        got = subscriber.collect(lambda m: len(subscriber.violations(m)) >= 1, timeout=5.0)
        assert [m.body["subject"] for m in subscriber.violations(got)] == ["sh1"]
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()[-3000:]
