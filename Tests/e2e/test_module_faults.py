"""Module faults never become a crash loop (docs/RELIABILITY.md): a rule module that dereferences NULL or loops
forever, compiled here with `cc`, in the real daemon. The crash or hang is traced to its rule through the
rule-call marker; the restarted daemon names it and quarantines it; the same event then passes; a reload
ends the quarantine; SIGTERM stops the daemon whatever a module does."""
from __future__ import annotations

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
        # A reload ends the quarantine: the rule runs again (and is shown so).
        again.send_signal(signal.SIGHUP)
        again.wait_status(lambda s: s["rules_quarantined"] == [], what="the quarantine ended by SIGHUP")
        assert not (tmp_path / "state" / "quarantine.json").exists()
        rules = {r["id"]: r for r in again.request({"cmd": "rules"})["rules"]}
        assert rules["faulty-crash"]["active"] is True and rules["faulty-crash"]["quarantined"] is None
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
    time.sleep(0.5)
    assert daemon.alive
    try:
        daemon.request({"cmd": "status"}, timeout=0.5)
        pytest.fail("the control socket answered while the ingest thread is stuck in the rule")
    except TimeoutError:
        pass
    started = time.monotonic()
    daemon.send_signal(signal.SIGTERM)
    code = wait_exit(daemon, 10)
    elapsed = time.monotonic() - started
    assert code == 1, (code, daemon.log()[-2000:])
    assert elapsed < 3, elapsed
    assert "stop_timeout" in daemon.log() and "rule=faulty-hang" in daemon.log()
