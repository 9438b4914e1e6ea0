"""The Debian package's units under a real systemd: the package installed with dpkg -i in a
Debian 12 root, which then boots (systemd-nspawn -b). The daemon starts from the boot as the
postinst enabled it, under the unit's whole sandbox (RestrictAddressFamilies=, SystemCallFilter=,
ProtectSystem=, ...), and the tests drive it as an administrator would: systemctl, journalctl,
the `modalwatch` CLI over the control socket. The tests run in order on one machine.
"""
from __future__ import annotations

import json
import re
import shutil
import time
from typing import Iterator

import pytest

import booted
from conftest import NOTES, TIMINGS

UNIT = "modalwatchd.service"
FORWARDER = "modalwatch-forward.service"
STATE = "/var/lib/modalwatch"
SNAPSHOT = f"{STATE}/sessions.checkpoint"
STREAM = "/var/tmp/stream.ndjson"
# A session that stays open (no session.end): the snapshot at the stop holds it.
OPEN_SESSION = "/var/tmp/open-session.ndjson"
# Logged by the daemon when it finds its state directory with other modes than it keeps.
MODES_NOTICE = "the state directory had other modes than it keeps"
# systemd's STATUS= from the daemon: the line it sends with READY=1, then one every 2 s.
STATUS_TEXT = re.compile(r"ready; no events yet|\d+ events/s; (\d+) in, \d+ rejected; \d+ sessions; \d+ violations")


@pytest.fixture(scope="module")
def machine(base_root, deb, tmp_path_factory) -> Iterator[booted.Machine]:
    """The root with the package installed (before the boot, as on a new system), booted."""
    workdir = tmp_path_factory.mktemp("booted")
    m = booted.Machine(base_root, workdir)
    try:
        m.install(deb)
        shutil.copy2(booted.PACKAGE_ROOT / "demo/stream.ndjson", m.root / STREAM.lstrip("/"))
        m.write(OPEN_SESSION, json.dumps({"v": 1, "type": "session.start", "session": "systemd-open", "ts": 1_732_290_000_000,
                                          "app": "com.example.systemd"}) + "\n")
        TIMINGS["boot"] = m.boot()
        NOTES.append(f"boot: {TIMINGS['boot']:.1f} s")
        yield m
    finally:
        if m.leader is not None:
            (workdir / "journal.txt").write_text(m.run(["journalctl", "-b", "--no-pager"], check=False, record=False).stdout)
        (workdir / "transcript.txt").write_text("\n\n".join(m.transcript) + "\n")
        m.close()


def daemon_status(m: booted.Machine) -> dict:
    return json.loads(m.run(["modalwatch", "status", "--json"]).stdout)


def mode(m: booted.Machine, path: str) -> str:
    return m.run(["stat", "-c", "%a %U %G", path]).stdout.strip()


def test_modalwatchd_is_active_within_seconds_of_the_boot_and_never_restarted(machine):
    assert booted.poll_until(lambda: machine.run(["systemctl", "is-active", UNIT], check=False).stdout.strip() == "active",
                             timeout=20), machine.report(UNIT)
    first = machine.show(UNIT, "MainPID", "NRestarts")
    time.sleep(3)  # a crash loop shows within this (RestartSec=2s)
    later = machine.show(UNIT, "ActiveState", "SubState", "MainPID", "NRestarts", "Result")
    assert later == {"ActiveState": "active", "SubState": "running", "MainPID": first["MainPID"], "NRestarts": "0",
                     "Result": "success"}, machine.report(UNIT)
    assert machine.run(["systemctl", "is-enabled", UNIT]).stdout.strip() == "enabled"


def test_the_status_text_comes_from_the_daemon_through_sd_notify(machine):
    text = machine.show(UNIT, "StatusText")["StatusText"]
    assert STATUS_TEXT.fullmatch(text), text
    machine.run(["modalwatch", "send", STREAM], timeout=60)

    def events_in() -> str | None:
        found = STATUS_TEXT.fullmatch(machine.show(UNIT, "StatusText")["StatusText"])
        return found.group(0) if found and found.group(1) and int(found.group(1)) > 0 else None
    text = booted.poll_until(events_in, timeout=10, interval=0.5)
    assert text, machine.show(UNIT, "StatusText")
    received = int(STATUS_TEXT.fullmatch(text).group(1))
    assert 0 < received <= daemon_status(machine)["events_received"], (text, daemon_status(machine))


def test_modalwatch_status_as_root_reads_the_daemon_over_the_control_socket(machine):
    plain = machine.run(["modalwatch", "status"])
    assert plain.stdout.strip(), plain.stderr
    status = daemon_status(machine)
    version = machine.run(["dpkg-query", "-W", "-f", "${Version}", "modalwatch"]).stdout.strip()
    assert version.startswith(status["version"] + "-"), (version, status["version"])
    assert "ipc:///run/modalwatch/control.sock" in status["endpoints"]["control"], status["endpoints"]
    assert sorted(m["name"] for m in status["modules"]) == ["action-sheet", "alert-content", "modality", "overuse"]
    socket = machine.run(["stat", "-c", "%A %U %G", "/run/modalwatch/control.sock"]).stdout.split()
    assert socket == ["srw-rw----", "modalwatch", "modalwatch"], socket


def test_the_state_directory_has_the_mode_of_state_directory_mode_after_the_start(machine):
    wanted = machine.show(UNIT, "StateDirectoryMode")["StateDirectoryMode"]
    assert wanted == "0700", "the daemon keeps its state directory owner-only (no history.group in the installed file)"
    assert mode(machine, STATE) == "700 modalwatch modalwatch"
    # systemd set the mode the daemon keeps: the daemon had nothing to bring back.
    assert MODES_NOTICE not in machine.journal(UNIT), machine.journal(UNIT)


def test_systemctl_reload_with_a_good_file_applies_it_and_keeps_the_modes(machine):
    # A local setting, as an operator adds one: a drop-in over the shipped file.
    machine.write("/etc/modalwatch/modalwatchd.yaml.d/50-local.yaml", "rules:\n  alert-frequency: { limit: 4, window: 10m }\n")
    pid = machine.show(UNIT, "MainPID")["MainPID"]
    before = daemon_status(machine)["config_reloads"]
    machine.run(["systemctl", "reload", UNIT], timeout=60)
    status = booted.poll_until(lambda: (s := daemon_status(machine))["config_reloads"] == before + 1 and s, timeout=10)
    assert status and status["config_reloads_refused"] == 0, (status, machine.journal(UNIT)[-3000:])
    assert machine.show(UNIT, "ActiveState", "MainPID", "NRestarts") == {"ActiveState": "active", "MainPID": pid, "NRestarts": "0"}
    assert mode(machine, STATE) == "700 modalwatch modalwatch"
    assert MODES_NOTICE not in machine.journal(UNIT)


def test_the_forwarder_unit_starts_and_stays_active(machine):
    machine.run(["systemctl", "start", FORWARDER], timeout=60)
    assert booted.poll_until(lambda: machine.show(FORWARDER, "ActiveState")["ActiveState"] == "active", timeout=10), \
        machine.report(FORWARDER)
    pid = machine.show(FORWARDER, "MainPID")["MainPID"]
    time.sleep(3)
    assert machine.show(FORWARDER, "ActiveState", "MainPID", "NRestarts") == {
        "ActiveState": "active", "MainPID": pid, "NRestarts": "0"}, machine.report(FORWARDER)
    assert machine.run(["systemctl", "is-active", FORWARDER]).stdout.strip() == "active"
    machine.run(["systemctl", "stop", FORWARDER], timeout=30)


def test_the_watchdog_restarts_a_daemon_that_stops_answering(machine):
    before = machine.show(UNIT, "ActiveState", "MainPID", "NRestarts", "WatchdogUSec")
    assert before["WatchdogUSec"] == "30s", before
    assert before["ActiveState"] == "active" and int(before["MainPID"]) > 0, machine.report(UNIT)
    started = time.monotonic()
    machine.run(["sh", "-c", f"kill -STOP {before['MainPID']}"])  # the shell's kill: minbase has no procps

    def restarted() -> bool:
        now = machine.show(UNIT, "ActiveState", "MainPID", "NRestarts")
        return now["ActiveState"] == "active" and now["MainPID"] not in ("0", before["MainPID"]) and now["NRestarts"] == "1"
    assert booted.poll_until(restarted, timeout=120, interval=1), machine.report(UNIT)
    seconds = time.monotonic() - started
    NOTES.append(f"watchdog: restarted {seconds:.0f} s after SIGSTOP (WatchdogSec=30s)")
    # systemd counts WatchdogSec=30s from the last WATCHDOG=1, which comes every 15 s.
    assert 10 < seconds < 120, seconds
    assert "Watchdog timeout" in machine.journal(UNIT), machine.journal(UNIT)[-3000:]


def test_systemctl_stop_writes_the_snapshot_and_the_daemon_exits_cleanly(machine):
    machine.run(["modalwatch", "send", OPEN_SESSION], timeout=60)
    assert booted.poll_until(lambda: daemon_status(machine)["sessions_live"] > 0, timeout=10), daemon_status(machine)
    machine.run(["rm", "-f", SNAPSHOT])
    machine.run(["systemctl", "stop", UNIT], timeout=60)
    after = machine.show(UNIT, "ActiveState", "Result", "ExecMainCode", "ExecMainStatus")
    # ExecMainCode 1: CLD_EXITED, with status 0.
    assert after == {"ActiveState": "inactive", "Result": "success", "ExecMainCode": "1", "ExecMainStatus": "0"}, \
        machine.report(UNIT)
    assert mode(machine, SNAPSHOT) == "600 modalwatch modalwatch"
    assert int(machine.run(["stat", "-c", "%s", SNAPSHOT]).stdout) > 0
    assert mode(machine, STATE) == "700 modalwatch modalwatch"
