"""A module that fails while it loads is refused by name, and the daemon starts with the rest.

Each module here is C compiled in the test with `cc -shared -fPIC`: one whose `modalwatch_module()`
dereferences NULL, one that loops forever there, one whose constructor calls `abort()`, one whose
`on_init` dereferences NULL and one whose `on_init` loops. Their constructors, entry point and
`on_init` run first in a probe child (`modalwatchd --probe-module`), so the
daemon becomes ready, names the file with its reason in the log and in `status`, and the built-in
rules still judge. `--check-config` and `modalwatch rules --verify --module` say the same.

A module file overwritten in place with `cp` while the daemon runs cannot change what the daemon
runs (it loaded a private copy); the replacement is reported in the log and in `status`.
"""
from __future__ import annotations

import shutil
import signal
import subprocess
from pathlib import Path

import pytest

import e2e_support as support
import streams
from test_modules import GOOD, compile_module

T0 = 1_732_290_000_000

NULL_ENTRY = r"""
#include "modalwatch_module.h"
const mw_module *modalwatch_module(void) {
    volatile const mw_module *nowhere = 0;
    return (const mw_module *)(unsigned long)nowhere->abi_major;
}
"""

LOOPING_ENTRY = r"""
#include "modalwatch_module.h"
const mw_module *modalwatch_module(void) {
    volatile unsigned long spin = 0;
    for (;;) spin++;
    return 0;
}
"""

ABORTING_CONSTRUCTOR = r"""
#include <stdlib.h>
#include "modalwatch_module.h"
__attribute__((constructor)) static void refuse(void) { abort(); }
const mw_module *modalwatch_module(void) { return 0; }
"""

def with_on_init(body: str) -> str:
    """GOOD's module (one rule) with an `on_init` of `body`."""
    source = GOOD.replace(
        "static const mw_module M = { MW_ABI_MAJOR, MW_ABI_MINOR, \"goodtest\", \"1.0.0\", RULES, 1, 0, 0 };",
        "static int32_t init(const mw_init *init, void **state) { " + body + " }\n"
        "static const mw_module M = { MW_ABI_MAJOR, MW_ABI_MINOR, \"goodtest\", \"1.0.0\", RULES, 1, 0, 0, init, 0 };")
    assert source != GOOD
    return source


NULL_ON_INIT = with_on_init("volatile int *nowhere = 0; return *nowhere;")
LOOPING_ON_INIT = with_on_init("volatile unsigned long spin = 0; for (;;) spin++; return MW_INIT_OK;")

FAULTS = {
    # file name: (source, the reason the daemon gives)
    "null-entry.so": (NULL_ENTRY, "crashed with SIGSEGV while loading"),
    "looping-entry.so": (LOOPING_ENTRY, "did not finish loading within 3 s"),
    "aborting-constructor.so": (ABORTING_CONSTRUCTOR, "crashed with SIGABRT while loading"),
    "null-on-init.so": (NULL_ON_INIT, "crashed with SIGSEGV while loading"),
    "looping-on-init.so": (LOOPING_ON_INIT, "did not finish loading within 3 s"),
}
CONFIG = "module_load_timeout: 3s\n"


def rules_dir_with(tmp_path: Path, name: str) -> Path:
    rules = tmp_path / "rules"
    rules.mkdir()
    source, _ = FAULTS[name]
    compile_module(source, rules / name, name.replace(".so", ".c"))
    for leftover in rules.glob("*.c"):
        leftover.unlink()
    return rules


def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "modalwatchd.yaml"
    path.write_text(CONFIG)
    return path


def another_library() -> Path:
    """A real shared library unlike the compiled test module: a built-in module."""
    found = sorted(support.bin_dir().glob("libmodalwatch-rules-*.so"))
    assert found, f"no built-in module in {support.bin_dir()}"
    return found[0]


def assert_builtin_rules_fire(zctx, daemon: support.Daemon, session: str) -> None:
    sender = support.EventSender(zctx, daemon.events)
    sender.warm_up(daemon)
    subscriber = support.Subscriber(zctx, daemon.publish, prefixes=("violation/com.example.load/alert-title-single-word",))
    subscriber.warm_up(sender)
    sender.events([streams.start(session, "com.example.load", T0), streams.alert(session, T0 + 1_000, f"{session}-a", "Error")])
    got = subscriber.collect(lambda m: len(subscriber.violations(m)) >= 1, timeout=5.0)
    assert [m.body["rule"] for m in subscriber.violations(got)] == ["alert-title-single-word"], [m.topic for m in got]
    sender.close()
    subscriber.close()


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_a_module_that_fails_while_loading_is_refused_by_name_and_the_daemon_runs(zctx, tmp_path, name):
    rules = rules_dir_with(tmp_path, name)
    config = config_file(tmp_path)
    reason = FAULTS[name][1]
    # Ready within start()'s bound (10 s), the hanging module's 3 s included.
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--rules-dir", str(rules), "--config", str(config)]).start()
    try:
        failures = daemon.status()["module_failures"]
        assert len(failures) == 1 and failures[0].startswith(str(rules / name)) and reason in failures[0], failures
        lines = [line for line in daemon.log().splitlines() if name in line]
        assert len(lines) == 1 and reason in lines[0], daemon.log()
        names = {m["name"] for m in daemon.status()["modules"]}
        assert {"overuse", "modality", "alert-content", "action-sheet"} <= names, names
        assert_builtin_rules_fire(zctx, daemon, "L1")
    finally:
        assert daemon.stop() == 0, daemon.log()[-3000:]


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_check_config_and_verify_name_a_module_that_fails_while_loading(tmp_path, name):
    rules = rules_dir_with(tmp_path, name)
    config = config_file(tmp_path)
    reason = FAULTS[name][1]
    check = subprocess.run([str(support.daemon_path()), "--check-config", "--config", str(config), "--rules-dir", str(rules)],
                           capture_output=True, timeout=30)
    out = check.stdout.decode()
    assert check.returncode == 1, out + check.stderr.decode()
    assert f"module failed: {rules / name}: {reason}" in out, out
    assert "module overuse" in out, out

    verify = subprocess.run([str(support.cli_path()), "rules", "--verify", "--module", str(rules / name), "--config", str(config)],
                            capture_output=True, timeout=30)
    out = verify.stdout.decode()
    assert verify.returncode == 1, out + verify.stderr.decode()
    assert f"FAILED  module: {rules / name}: {reason}" in out, out


def test_a_module_overwritten_in_place_keeps_running_and_the_replacement_is_reported(zctx, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    compile_module(GOOD, rules / "good.so", "good.c")
    for leftover in rules.glob("*.c"):
        leftover.unlink()
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--rules-dir", str(rules)]).start()
    try:
        # In place: the same inode, new bytes (what `cp` does to an existing file): another .so,
        # a built-in module, whose code lies elsewhere in the file.
        subprocess.run(["cp", str(another_library()), str(rules / "good.so")], check=True)
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=("violation/com.example.g/",))
        subscriber.warm_up(sender)
        sender.events([
            {"v": 1, "type": "session.start", "session": "G1", "ts": T0, "app": "com.example.g"},
            {"v": 1, "type": "sheet.presented", "session": "G1", "ts": T0 + 10, "id": "sh1",
             "buttons": [{"title": "Delete", "style": "destructive"}, {"title": "Cancel", "style": "cancel"}]},
            streams.alert("G1", T0 + 20, "a1", "Error"),
        ])
        got = subscriber.collect(lambda m: len(subscriber.violations(m)) >= 2, timeout=5.0)
        rules_seen = sorted(m.body["rule"] for m in subscriber.violations(got))
        assert "any-sheet" in rules_seen, rules_seen
        assert daemon.alive, daemon.log()[-3000:]
        assert daemon.status()["module_files_changed"] == [], "a reload or the timer reports it, not this early"
        # A reload checks the module files at once (a timer does it too).
        daemon.send_signal(signal.SIGHUP)
        status = daemon.wait_status(lambda s: s["module_files_changed"] != [], what="the replaced module reported")
        changed = status["module_files_changed"]
        assert len(changed) == 1 and changed[0].startswith(str(rules / "good.so")) and "restart" in changed[0], changed
        lines = [line for line in daemon.log().splitlines() if "good.so" in line and "changed" in line]
        assert len(lines) == 1, daemon.log()
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()[-3000:]


def test_a_module_file_replaced_by_rename_is_reported_too(zctx, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    compile_module(GOOD, rules / "good.so", "good.c")
    for leftover in rules.glob("*.c"):
        leftover.unlink()
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--rules-dir", str(rules)]).start()
    try:
        shutil.copy(another_library(), tmp_path / "other.so")
        (tmp_path / "other.so").rename(rules / "good.so")
        daemon.send_signal(signal.SIGHUP)
        status = daemon.wait_status(lambda s: s["module_files_changed"] != [], what="the replaced module reported")
        assert "good.so" in status["module_files_changed"][0], status["module_files_changed"]
    finally:
        assert daemon.stop() == 0, daemon.log()[-3000:]


def test_each_failing_module_in_one_folder_is_named_with_its_own_reason_and_the_rest_load(zctx, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    for name, (source, _) in FAULTS.items():
        compile_module(source, rules / name, name.replace(".so", ".c"))
    compile_module(GOOD, rules / "good.so", "good.c")   # between the failing ones in load order
    for leftover in rules.glob("*.c"):
        leftover.unlink()
    config = config_file(tmp_path)
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--rules-dir", str(rules), "--config", str(config)]).start()
    try:
        failures = daemon.status()["module_failures"]
        by_file = {Path(line.split(":", 1)[0]).name: line for line in failures}
        assert set(by_file) == set(FAULTS), failures
        for name, (_, reason) in FAULTS.items():
            assert reason in by_file[name], by_file[name]
        assert "goodtest" in {m["name"] for m in daemon.status()["modules"]}
        assert_builtin_rules_fire(zctx, daemon, "L2")
    finally:
        assert daemon.stop() == 0, daemon.log()[-3000:]
