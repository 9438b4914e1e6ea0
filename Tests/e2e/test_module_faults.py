"""Module faults never become a crash loop (docs/RELIABILITY.md): a rule module that dereferences NULL or loops
forever, compiled here with `cc`, in the real daemon. The crash or hang is traced to its rule through the
rule-call marker; the restarted daemon names it and quarantines it; the same event then passes; a reload
ends the quarantine; SIGTERM stops the daemon whatever a module does."""
from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

import e2e_support as support
from test_modules import compile_module

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_732_290_000_000
APP = "com.example.faults"


@pytest.fixture(scope="module")
def faulty_rules(tmp_path_factory) -> Path:
    rules = tmp_path_factory.mktemp("faulty-rules")
    compile_module(ROOT / "Tests" / "Fixtures" / "faults" / "faulty.c", rules / "faulty.so")
    return rules


def events(session: str, label: str) -> list[dict]:
    return [
        {"v": 1, "type": "session.start", "session": session, "ts": T0, "app": APP},
        {"v": 1, "type": "user.action", "session": session, "ts": T0 + 1000, "control": "button", "label": label},
    ]


def start(zctx, workdir: Path, rules: Path, config: str = "") -> support.Daemon:
    args = ["--rules-dir", str(rules)]
    if config:
        path = workdir / "modalwatchd.yaml"
        path.write_text(config)
        args += ["--config", str(path)]
    return support.Daemon(zctx, workdir, extra_args=args).start()


def wait_exit(daemon: support.Daemon, timeout: float) -> int:
    daemon.stopped_on_purpose = True
    try:
        return daemon.process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        daemon.process.kill()
        daemon.process.wait(timeout=5)
        pytest.fail(f"modalwatchd still running {timeout} s after the fault:\n{daemon.log()[-3000:]}")


def send(zctx, daemon: support.Daemon, batch: list[dict]) -> None:
    sender = support.EventSender(zctx, daemon.events)
    sender.warm_up(daemon)
    sender.events(batch)
    sender.close()


def assert_quarantined_and_the_event_passes(zctx, daemon: support.Daemon, rule: str, fault: str, label: str) -> None:
    culprit = [line for line in daemon.log().splitlines() if "quarantined until a reload" in line]
    assert len(culprit) == 1, daemon.log()
    assert f"rule={rule}" in culprit[0] and "module=faulty" in culprit[0] and fault in culprit[0], culprit[0]
    assert "user.action" in culprit[0] and f"session {label}" in culprit[0], culprit[0]
    status = daemon.status()
    assert [q["rule"] for q in status["rules_quarantined"]] == [rule], status["rules_quarantined"]
    rules = {r["id"]: r for r in daemon.request({"cmd": "rules"})["rules"]}
    assert rules[rule]["active"] is False and fault in rules[rule]["quarantined"], rules[rule]
    assert rules["faulty-fine"]["quarantined"] is None and rules["faulty-fine"]["active"] is True

    subscriber = support.Subscriber(zctx, daemon.publish, prefixes=["violation/"])
    sender = support.EventSender(zctx, daemon.events)
    sender.warm_up(daemon)
    subscriber.warm_up(sender)
    base = daemon.status()
    sender.events(events(label, label))        # the very event that brought it down
    daemon.wait_status(lambda s: support.delta(s, base, "events_judged") >= 2, what="the same event judged")
    got = subscriber.collect(lambda ms: len(ms) >= 1, timeout=3)
    assert [m.body["rule"] for m in got] == ["faulty-fine"], [m.topic for m in got]
    assert daemon.alive
    sender.close()
    subscriber.close()


def test_a_crashing_rule_is_traced_quarantined_after_the_restart_and_released_by_a_reload(zctx, tmp_path, faulty_rules):
    daemon = start(zctx, tmp_path, faulty_rules)
    send(zctx, daemon, events("CRASH", "CRASH"))
    code = wait_exit(daemon, 10)
    assert code == -signal.SIGSEGV, (code, daemon.log()[-2000:])

    again = start(zctx, tmp_path, faulty_rules)
    try:
        assert_quarantined_and_the_event_passes(zctx, again, "faulty-crash", "crashed (SIGSEGV)", "CRASH")
        assert (tmp_path / "state" / "quarantine.json").exists()
        # `status` says so in its text, and `status --check` fails on it.
        checked = support.run_cli(["status", "--check", "--control", again.control])
        text = checked.stdout.decode()
        assert checked.returncode == 1, text + checked.stderr.decode()
        assert [line for line in text.splitlines() if line.startswith("warning: rule faulty-crash (module ")
                and "quarantined: crashed (SIGSEGV)" in line], text
        # A reload ends the quarantine: the rule runs again (and is shown so).
        again.send_signal(signal.SIGHUP)
        again.wait_status(lambda s: s["rules_quarantined"] == [], what="the quarantine ended by SIGHUP")
        assert not (tmp_path / "state" / "quarantine.json").exists()
        rules = {r["id"]: r for r in again.request({"cmd": "rules"})["rules"]}
        assert rules["faulty-crash"]["active"] is True and rules["faulty-crash"]["quarantined"] is None
        checked = support.run_cli(["status", "--check", "--control", again.control])
        assert checked.returncode == 0, checked.stdout.decode() + checked.stderr.decode()
    finally:
        assert again.stop() == 0, again.log()


def test_a_hanging_rule_is_ended_by_the_watchdog_and_quarantined(zctx, tmp_path, faulty_rules):
    daemon = start(zctx, tmp_path, faulty_rules, config="rule_call_timeout: 300ms\n")
    send(zctx, daemon, events("HANG", "HANG"))
    started = time.monotonic()
    code = wait_exit(daemon, 10)
    assert code == 70, (code, daemon.log()[-2000:])
    assert time.monotonic() - started < 5
    assert "rule=faulty-hang" in daemon.log() and "rule_call_timeout" in daemon.log()

    again = start(zctx, tmp_path, faulty_rules, config="rule_call_timeout: 300ms\n")
    try:
        assert_quarantined_and_the_event_passes(zctx, again, "faulty-hang", "hung", "HANG")
    finally:
        assert again.stop() == 0, again.log()


def test_sessions_survive_the_watchdogs_exit_through_the_checkpoint(zctx, tmp_path, faulty_rules):
    """The watchdog's exit 70 is an end without a graceful stop: the checkpoint written while the
    daemon ran brings its sessions back at the next start."""
    config = "rule_call_timeout: 300ms\ncheckpoint_interval: 1s\n"
    daemon = start(zctx, tmp_path, faulty_rules, config=config)
    send(zctx, daemon, [{"v": 1, "type": "session.start", "session": f"W{n}", "ts": T0, "app": APP} for n in range(50)])
    daemon.wait_status(lambda s: s["checkpoint_sessions"] == 50, timeout=10, what="a checkpoint of the 50 sessions")
    send(zctx, daemon, events("HANG", "HANG"))
    assert wait_exit(daemon, 10) == 70, daemon.log()[-2000:]

    again = start(zctx, tmp_path, faulty_rules, config=config)
    try:
        restored = [line for line in again.log().splitlines() if "restored sessions from the newest checkpoint" in line]
        # 50, or 51 when a walk took the hanging session's start before its action came.
        assert len(restored) == 1 and re.search(r"sessions=5[01] ", restored[0]), again.log()[-2000:]
        assert again.status()["sessions_live"] >= 50
        assert again.request({"cmd": "session", "id": "W7"})["ok"] is True
    finally:
        assert again.stop() == 0, again.log()


def test_quarantine_false_in_the_configuration_runs_the_rule_again(zctx, tmp_path, faulty_rules):
    daemon = start(zctx, tmp_path, faulty_rules)
    send(zctx, daemon, events("CRASH", "CRASH"))
    assert wait_exit(daemon, 10) == -signal.SIGSEGV
    again = start(zctx, tmp_path, faulty_rules, config="quarantine: false\n")
    try:
        assert again.status()["rules_quarantined"] == []
        assert "faulty-crash" in again.log() and "crashed (SIGSEGV)" in again.log(), "the culprit is still named"
    finally:
        assert again.stop() == 0, again.log()


def test_sigterm_stops_the_daemon_whatever_a_module_does(zctx, tmp_path, faulty_rules):
    # No watchdog: only the stop deadline can end the hung rule's process.
    daemon = start(zctx, tmp_path, faulty_rules, config="rule_call_timeout: null\nstop_timeout: 1s\n")
    send(zctx, daemon, events("HANG", "HANG"))

    def stuck() -> bool:
        # `status` is answered from the counters the loop published before it got stuck: they age.
        return daemon.status(fresh=False)["counts_age_s"] > 1.0

    assert support.poll_until(stuck, 10), "the counts kept being published: the ingest thread never got stuck in the rule"
    assert daemon.alive
    try:
        daemon.request({"cmd": "rules"}, timeout=0.5)
        pytest.fail("the control socket answered `rules` while the ingest thread is stuck in the rule")
    except TimeoutError:
        pass
    started = time.monotonic()
    daemon.send_signal(signal.SIGTERM)
    code = wait_exit(daemon, 10)
    elapsed = time.monotonic() - started
    assert code == 1, (code, daemon.log()[-2000:])
    assert elapsed < 3, elapsed
    assert "stop_timeout" in daemon.log() and "rule=faulty-hang" in daemon.log()


THREADED = r"""
/* A module whose rule starts a thread that crashes later, and a slow rule that is running then. */
#include <pthread.h>
#include <string.h>
#include <time.h>
#include "modalwatch_module.h"

static int label_is(const mw_call *call, const char *text) {
    mw_str label = call->event->label;
    return label.ptr != NULL && label.len == strlen(text) && memcmp(label.ptr, text, label.len) == 0;
}

static volatile int slow_running;

static void *crash_later(void *unused) {
    (void)unused;
    struct timespec pause = {0, 50 * 1000 * 1000};
    /* Crash once the ingest thread is inside threaded-slow (at most 10 s from now). */
    for (int i = 0; i < 200 && !__atomic_load_n(&slow_running, __ATOMIC_ACQUIRE); i++) nanosleep(&pause, NULL);
    nanosleep(&pause, NULL);
    volatile int *nowhere = NULL;
    *nowhere = 1;
    return NULL;
}

static void spawn(const mw_call *call) {
    if (!label_is(call, "SPAWN")) return;
    pthread_t thread;
    pthread_create(&thread, NULL, crash_later, NULL);
    pthread_detach(thread);
}

static void slow(const mw_call *call) {
    if (!label_is(call, "SLOW")) return;
    __atomic_store_n(&slow_running, 1, __ATOMIC_RELEASE);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do clock_gettime(CLOCK_MONOTONIC, &now); while (now.tv_sec - start.tv_sec < 3);
}

#define RULE(id, fn) \
    { id, 1, MW_SEVERITY_INFO, MW_EDITION_2009 | MW_EDITION_IOS7 | MW_EDITION_CURRENT, \
      MW_EVENT_BIT(MW_EVENT_USER_ACTION), MW_FIRE_EVERY_TIME, 0, NULL, "test", "Test", "current: Test", NULL, 0, 0, fn }

static const mw_rule rules[] = { RULE("threaded-spawn", spawn), RULE("threaded-slow", slow) };
static const mw_module module = { MW_ABI_MAJOR, MW_ABI_MINOR, "threaded", "1.0.0", rules, 2, 0, NULL };
const mw_module *modalwatch_module(void) { return &module; }
"""

# A module of another name that declares a rule with the id of faulty.so's crashing rule.
NAMESAKE = r"""
#include "modalwatch_module.h"
static void nothing(const mw_call *call) { (void)call; }
static const mw_rule rules[] = {{ "faulty-crash", 1, MW_SEVERITY_INFO, MW_EDITION_2009 | MW_EDITION_IOS7 | MW_EDITION_CURRENT,
    MW_EVENT_BIT(MW_EVENT_USER_ACTION), MW_FIRE_EVERY_TIME, 0, NULL, "test", "Test", "current: Test", NULL, 0, 0, nothing }};
static const mw_module module = { MW_ABI_MAJOR, MW_ABI_MINOR, "namesake", "1.0.0", rules, 1, 0, NULL };
const mw_module *modalwatch_module(void) { return &module; }
"""


def test_a_crash_of_another_thread_does_not_quarantine_the_rule_that_was_running(zctx, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    compile_module(THREADED, rules / "threaded.so", "threaded.c")
    (rules / "threaded.c").unlink()
    config = "rule_call_timeout: 30s\n"
    daemon = start(zctx, tmp_path, rules, config=config)
    send(zctx, daemon, [
        {"v": 1, "type": "session.start", "session": "T", "ts": T0, "app": APP},
        {"v": 1, "type": "user.action", "session": "T", "ts": T0 + 1000, "control": "button", "label": "SPAWN"},
        {"v": 1, "type": "user.action", "session": "T", "ts": T0 + 2000, "control": "button", "label": "SLOW"},
    ])
    # The module's own thread crashes while the ingest thread is in threaded-slow.
    assert wait_exit(daemon, 30) == -signal.SIGSEGV, daemon.log()[-2000:]

    again = start(zctx, tmp_path, rules, config=config)
    try:
        assert again.status()["rules_quarantined"] == [], again.log()
        assert "quarantined until a reload" not in again.log(), again.log()
    finally:
        assert again.stop() == 0, again.log()


def test_a_quarantine_names_the_rule_of_its_module_not_a_namesake_in_another(zctx, tmp_path, faulty_rules):
    daemon = start(zctx, tmp_path, faulty_rules)
    send(zctx, daemon, events("CRASH", "CRASH"))
    assert wait_exit(daemon, 30) == -signal.SIGSEGV

    # The module set changed: faulty.so is gone, and another module declares a rule of the same id.
    rules = tmp_path / "other-rules"
    rules.mkdir()
    compile_module(NAMESAKE, rules / "namesake.so", "namesake.c")
    (rules / "namesake.c").unlink()
    again = start(zctx, tmp_path, rules)
    try:
        assert again.status()["rules_quarantined"] == [], again.log()
        listed = {r["id"]: r for r in again.request({"cmd": "rules"})["rules"]}
        assert listed["faulty-crash"]["module"] == "namesake" and listed["faulty-crash"]["active"] is True, listed["faulty-crash"]
        named = [line for line in again.log().splitlines() if "rule=faulty-crash" in line and "module=faulty " in line + " "]
        assert len(named) == 1 and "not loaded now" in named[0], again.log()
    finally:
        assert again.stop() == 0, again.log()


def test_a_marker_and_a_quarantine_holding_integers_past_their_bounds_are_refused_by_field(zctx, tmp_path, faulty_rules):
    """The marker of a real crash with its `session_len` made 2^32 − 1, and a quarantine whose entry's `since` is
    −1: the daemon starts, quarantines nothing, says so in one line for each naming the file and the field, and
    sets the marker aside (kept as it was)."""
    daemon = start(zctx, tmp_path, faulty_rules)
    send(zctx, daemon, events("CRASH", "CRASH"))
    assert wait_exit(daemon, 30) == -signal.SIGSEGV
    state = tmp_path / "state"
    marker = bytearray((state / "rule-call.marker").read_bytes())
    marker[44:48] = (0xFFFF_FFFF).to_bytes(4, "little")          # session_len
    (state / "rule-call.marker").write_bytes(bytes(marker))
    (state / "quarantine.json").write_text(
        '[{"rule":"faulty-hang","module":"faulty","fault":"hung (the watchdog ended it)",'
        '"event":"user.action at ts 1 of session H","since":-1}]')

    again = start(zctx, tmp_path, faulty_rules)
    try:
        assert again.status()["rules_quarantined"] == [], again.log()
        lines = again.log().splitlines()
        refused = [line for line in lines if "rule-call marker was refused" in line]
        assert len(refused) == 1 and "field=session_len" in refused[0] and "rule-call.marker" in refused[0], again.log()
        entry = [line for line in lines if "an entry of the quarantine file was refused" in line]
        assert len(entry) == 1 and "field=since" in entry[0] and "quarantine.json" in entry[0], again.log()
        aside = [p for p in state.iterdir() if p.name.startswith("rule-call.marker.refused-")]
        assert len(aside) == 1 and aside[0].read_bytes() == bytes(marker), list(state.iterdir())
    finally:
        assert again.stop() == 0, again.log()
