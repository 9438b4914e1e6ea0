"""modalwatchd as a service: the systemd notify protocol, reload, restarts that
lose nothing, the history store, the unit file, and the metrics endpoint.
All against the real daemon process, its real files and real signals."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

import e2e_support as support

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_732_290_000_000


def alert(session: str, ts: int, aid: str, title: str = "Delete this contact?") -> dict:
    return {"v": 1, "type": "alert.presented", "session": session, "ts": ts, "id": aid, "title": title,
            "message": "This cannot be undone.",
            "buttons": [{"title": "Cancel", "style": "cancel"}, {"title": "Delete", "style": "default"}]}


def start(session: str, app: str = "com.example.svc") -> dict:
    return {"v": 1, "type": "session.start", "session": session, "ts": T0, "app": app}


def alerts(session: str, first: int, count: int) -> list[dict]:
    return [alert(session, T0 + (first + i) * 10_000, f"{session}-a{first + i}", f"Remove item {first + i}?")
            for i in range(count)]


def frequency_violations(daemon: support.Daemon) -> int:
    rules = daemon.status().get("violations_found", 0)
    return rules


# -- systemd notify protocol -------------------------------------------------

def test_ready_only_after_sockets_answer_and_watchdog_keeps_coming(zctx, tmp_path):
    path = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.settimeout(10)
    daemon = support.Daemon(zctx, tmp_path, env={"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "400000"})
    try:
        daemon.start()
        # READY=1 must have come, and before it nothing claimed readiness; the sockets answer now.
        messages: list[str] = []
        deadline = time.monotonic() + 5
        while not any("READY=1" in m for m in messages) and time.monotonic() < deadline:
            messages.append(listener.recv(4096).decode())
        assert any("READY=1" in m for m in messages), messages
        assert daemon.request({"cmd": "status"})["ok"] is True
        # WATCHDOG=1 keeps coming from the ingest loop while events flow (every 200 ms at WATCHDOG_USEC=400 ms).
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        watchdogs = 0
        statuses = []
        end = time.monotonic() + 2.6  # STATUS= comes every 2 s
        i = 0
        listener.settimeout(0.05)
        while time.monotonic() < end:
            sender.event({"v": 1, "type": "user.action", "session": "W", "ts": T0 + i})
            i += 1
            try:
                m = listener.recv(4096).decode()
                watchdogs += m.count("WATCHDOG=1")
                statuses += [line for line in m.splitlines() if line.startswith("STATUS=")]
            except socket.timeout:
                pass
        assert watchdogs >= 4, watchdogs
        assert statuses and "events/s" in statuses[-1], statuses
        # a reload is announced: RELOADING=1 (with MONOTONIC_USEC), then READY=1
        listener.settimeout(5)
        daemon.send_signal(signal.SIGHUP)
        seen: list[str] = []
        while not any(line == "READY=1" for m in seen for line in m.splitlines()):
            seen.append(listener.recv(4096).decode())
        lines = [line for m in seen for line in m.splitlines()]
        assert "RELOADING=1" in lines and lines.index("RELOADING=1") < lines.index("READY=1"), lines
        assert any(line.startswith("MONOTONIC_USEC=") for line in lines), lines
        sender.close()
    finally:
        listener.close()
        assert daemon.stop() == 0


def test_ready_comes_after_binding_and_a_taken_endpoint_never_says_ready(zctx, tmp_path):
    path = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.settimeout(0.2)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    process = subprocess.Popen(
        [str(support.daemon_path()), "--events", f"tcp://127.0.0.1:{port}", "--publish", support.free_tcp_endpoint(),
         "--control", support.free_tcp_endpoint(), "--state-dir", str(tmp_path / "state")],
        env={**os.environ, "NOTIFY_SOCKET": str(path)}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert process.wait(timeout=10) == 1
        received = []
        try:
            while True:
                received.append(listener.recv(4096).decode())
        except socket.timeout:
            pass
        assert not any("READY=1" in m for m in received), received
        assert b"cannot bind events" in process.stdout.read()
    finally:
        taken.close()
        listener.close()


# -- reload --------------------------------------------------------------------

@pytest.mark.needs_rules("alert-frequency")
def test_sighup_changes_a_parameter_keeping_sessions_and_refuses_a_broken_config(zctx, tmp_path):
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("rules:\n  alert-frequency: { limit: 5 }\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        sub = support.Subscriber(zctx, daemon.publish, prefixes=("violation/com.example.svc/alert-frequency",))
        sub.warm_up(sender)
        sender.events([start("R1")] + alerts("R1", 0, 4))
        daemon.wait_status(lambda s: s["sessions_live"] >= 1 and s["events_judged"] >= 5, what="4 alerts judged")
        assert sub.violations(sub.collect(lambda m: False, timeout=0.5)) == []  # 4 alerts, limit 5

        config.write_text("rules:\n  alert-frequency: { limit: 2 }\n")
        daemon.send_signal(signal.SIGHUP)
        daemon.wait_status(lambda s: s["config_reloads"] == 1, what="reload")
        sender.events(alerts("R1", 4, 1))  # the 5th alert of the same session: 5 > 2
        got = sub.violations(sub.collect(lambda m: len(sub.violations(m)) >= 1, timeout=5))
        assert len(got) == 1
        assert got[0].body["evidence"].get("limit") == 2
        assert got[0].body["evidence"].get("count", 5) >= 5, "the session kept its 4 earlier alerts"

        config.write_text("rules:\n  alert-frequency: { limit: [not a number] }\n")
        daemon.send_signal(signal.SIGHUP)
        daemon.wait_status(lambda s: s["config_reloads_refused"] == 1, what="refused reload")
        assert "reload refused" in daemon.log()
        # the old configuration (limit 2) stays in force: a new session's 3rd alert fires
        sender.events([start("R2")] + alerts("R2", 0, 3))
        everything = sub.violations(sub.collect(lambda m: len(sub.violations(m)) >= 2, timeout=5))
        assert [v.body["session"] for v in everything] == ["R1", "R2"]
        assert everything[1].body["evidence"].get("limit") == 2
        sender.close()
        sub.close()
    finally:
        assert daemon.stop() == 0


# -- restarts --------------------------------------------------------------------

@pytest.mark.needs_rules("alert-frequency")
def test_sigterm_then_restart_continues_a_sessions_counts(zctx, tmp_path):
    first = support.Daemon(zctx, tmp_path).start()
    sender = support.EventSender(zctx, first.events)
    sender.warm_up(first)
    sender.events([start("K1")] + alerts("K1", 0, 3))
    first.wait_status(lambda s: s["events_judged"] >= 4, what="3 alerts judged")
    sender.close()
    assert first.stop(signal.SIGTERM) == 0
    assert (tmp_path / "state" / "sessions.checkpoint").exists()

    second = support.Daemon(zctx, tmp_path).start()
    try:
        assert second.status()["sessions_live"] == 1
        sender = support.EventSender(zctx, second.events)
        sender.warm_up(second)
        sub = support.Subscriber(zctx, second.publish, prefixes=("violation/com.example.svc/alert-frequency",))
        sub.warm_up(sender)
        sender.events(alerts("K1", 3, 1))  # the 4th alert: over the limit of 3 only if the first 3 survived
        got = sub.violations(sub.collect(lambda m: len(sub.violations(m)) >= 1, timeout=5))
        assert [v.body["session"] for v in got] == ["K1"]
        sender.close()
        sub.close()
    finally:
        assert second.stop() == 0


@pytest.mark.needs_rules("alert-single-button")
def test_kill_9_mid_stream_loses_no_violation_a_subscriber_saw(zctx, tmp_path):
    daemon = support.Daemon(zctx, tmp_path).start()
    sender = support.EventSender(zctx, daemon.events)
    sender.warm_up(daemon)
    sub = support.Subscriber(zctx, daemon.publish, prefixes=("violation/",))
    sub.warm_up(sender)
    received: list[str] = []
    for batch in range(40):
        events = [start(f"X{batch}")]
        for i in range(25):
            events.append({"v": 1, "type": "alert.presented", "session": f"X{batch}", "ts": T0 + 1000 * i,
                           "id": f"x{batch}-{i}", "title": "Error", "buttons": [{"title": "OK"}]})
        sender.batch(events)
        if batch == 20:
            got = sub.collect(lambda m: len(sub.violations(m)) >= 50, timeout=5, settle=0.0)
            received += [m.body["id"] for m in sub.violations(got)]
            daemon.process.send_signal(signal.SIGKILL)
            daemon.stopped_on_purpose = True
            daemon.process.wait(timeout=5)
            break
    assert received, "nothing was received before the kill"
    history = tmp_path / "state" / "history.sqlite"
    stored = set(support.stored_ids(history.parent))
    missing = [i for i in received if i not in stored]
    assert not missing, f"{len(missing)} of {len(received)} received violations are not in the history"
    # the restarted daemon serves them through the control socket, and the CLI reads the file directly
    again = support.Daemon(zctx, tmp_path).start()
    try:
        # a page holds at most 256 KiB of violations: follow the cursor
        assert {v["id"] for v in again.all_violations()} >= set(received)
        cli = support.run_cli(["violations", "--state-dir", str(tmp_path / "state"), "--json", "--limit", "10000"])
        assert cli.returncode == 0, cli.stderr
        assert {json.loads(line)["id"] for line in cli.stdout.splitlines()} >= set(received)
    finally:
        assert again.stop() == 0
    sender.close()
    sub.close()


@pytest.mark.needs_rules("alert-single-button")
@pytest.mark.parametrize("kill_after", [3, 17, 60])
def test_kill_9_while_violations_are_committed_leaves_every_published_one_stored_once(zctx, tmp_path, kill_after):
    """The kill comes while batches are still being judged, committed and published (no wait for them to
    settle): whatever a subscriber received before and after it (already sent) is in a committed row,
    and no violation is stored twice."""
    daemon = support.Daemon(zctx, tmp_path).start()
    sender = support.EventSender(zctx, daemon.events)
    sender.warm_up(daemon)
    sub = support.Subscriber(zctx, daemon.publish, prefixes=("violation/",))
    sub.warm_up(sender)
    for batch in range(kill_after + 1):
        events = [start(f"K{batch}")]
        events += [{"v": 1, "type": "alert.presented", "session": f"K{batch}", "ts": T0 + 1000 * i,
                    "id": f"k{batch}-{i}", "title": "Error", "buttons": [{"title": "OK"}]} for i in range(25)]
        sender.batch(events)
        # The first batch's violations arrive before the rest are sent, which the kill then meets in flight.
        sub.collect(lambda m: batch > 0 or len(sub.violations(m)) > 0, timeout=5.0, settle=0.0)
    daemon.process.send_signal(signal.SIGKILL)
    daemon.stopped_on_purpose = True
    daemon.process.wait(timeout=5)
    received = [m.body["id"] for m in sub.violations(sub.collect(lambda m: False, timeout=1.0, settle=0.0))]
    assert received, "nothing was received before the kill"
    stored = support.stored_ids(tmp_path / "state")
    assert len(stored) == len(set(stored)), "a violation stored twice"
    missing = [i for i in received if i not in set(stored)]
    assert not missing, f"{len(missing)} of {len(received)} received violations are not in the history"
    sender.close()
    sub.close()


# -- the unit and the install ------------------------------------------------------

def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian: systemd)")
    destdir = tmp_path / "root"
    env = {**os.environ, "DESTDIR": str(destdir), "PREFIX": "/usr", "CONFIGURATION": "debug", "SKIP_BUILD": "1"}
    subprocess.run(["bash", str(ROOT / "scripts" / "install.sh")], check=True, env=env, capture_output=True, timeout=120)
    installed = destdir / "usr/lib/systemd/system/modalwatchd.service"
    binary = destdir / "usr/bin/modalwatchd"
    config = destdir / "etc/modalwatch/modalwatchd.yaml"
    assert binary.exists() and config.exists()
    assert sorted(p.name for p in (destdir / "usr/lib/modalwatch/rules").glob("*.so")) == [
        "libmodalwatch-rules-action-sheet.so", "libmodalwatch-rules-alert-content.so",
        "libmodalwatch-rules-modality.so", "libmodalwatch-rules-overuse.so"]
    text = installed.read_text()
    # The unit takes every endpoint from the configuration file, which has the service's control socket.
    exec_start = re.search(r"^ExecStart=(.*)$", text, re.M).group(1).split()
    assert exec_start == ["/usr/bin/modalwatchd", "--config", "/etc/modalwatch/modalwatchd.yaml"], exec_start
    assert re.search(r"^control: ipc:///run/modalwatch/control\.sock$", config.read_text(), re.M)
    # It runs as the modalwatch user and group (made by systemd-sysusers), whose members use the CLI.
    for setting in ("User=modalwatch", "Group=modalwatch", "RuntimeDirectory=modalwatch", "RuntimeDirectoryMode=0750", "UMask=0007"):
        assert re.search(rf"^{re.escape(setting)}$", text, re.M), setting
    assert "DynamicUser" not in text
    assert "u modalwatch " in (destdir / "usr/lib/sysusers.d/modalwatch.conf").read_text()
    # Documentation= names what the install put under PREFIX.
    documentation = re.search(r"^Documentation=(.*)$", text, re.M).group(1).split()
    files = [d.removeprefix("file://") for d in documentation if d.startswith("file://")]
    assert files and all((destdir / f.lstrip("/")).is_file() for f in files), documentation
    assert (destdir / "usr/share/doc/modalwatch/spec/events.md").is_file()
    # A reload goes through the CLI over the service's control socket, so a refused file fails it.
    exec_reload = re.search(r"^ExecReload=(.*)$", text, re.M).group(1).split()
    assert exec_reload == ["/usr/bin/modalwatch", "reload", "--control", "ipc:///run/modalwatch/control.sock"], exec_reload
    # verify checks that ExecStart's and ExecReload's binaries exist: point the unit at the staged
    # ones. The man page of Documentation= comes with the Debian package (test_package.py), not with install.sh.
    unit = tmp_path / "modalwatchd.service"
    unit.write_text(text.replace("/usr/bin/", f"{binary.parent}/"))
    result = subprocess.run([analyze, "verify", "--man=no", str(unit)], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    # the installed daemon finds its modules with no configuration, and the default config checks out
    check = subprocess.run([str(binary), "--check-config", "--config", str(config)], capture_output=True, timeout=30)
    assert check.returncode == 0, check.stdout.decode() + check.stderr.decode()
    assert "lib/modalwatch/rules" in check.stdout.decode()


# -- metrics -----------------------------------------------------------------------

@pytest.mark.needs_rules("alert-single-button")
def test_a_metrics_scrape_parses_as_prometheus_text_and_matches_status(zctx, tmp_path):
    prometheus = pytest.importorskip("prometheus_client.parser")
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("metrics: 127.0.0.1:0\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        url = daemon.status()["endpoints"]["metrics"][0]
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        sender.events([start("M1")] + [
            {"v": 1, "type": "alert.presented", "session": "M1", "ts": T0 + 1000 * i, "id": f"m{i}", "title": "Error",
             "buttons": [{"title": "OK"}]} for i in range(5)] + [b"{broken" if False else
             {"v": 1, "type": "alert.presented", "session": "M1", "ts": "late", "id": "bad"}])
        sender.send(b"{not json")
        daemon.wait_status(lambda s: s["events_received"] >= 9 and s["violations_found"] > 0, what="events in, violations found")

        def total(families: dict, name: str, **labels: str) -> float:
            family = families[name]
            return sum(s.value for s in family.samples
                       if s.name.endswith("_total") or s.name == name
                       if all(s.labels.get(k) == v for k, v in labels.items()))

        def differences(status: dict, families: dict) -> dict[str, tuple[float, float]]:
            """What the scrape gives otherwise than `status`: (metric, status) by name."""
            pairs = {name: (total(families, f"modalwatch_{name}"), status[name])
                     for name in ("events_received", "events_judged", "violations_published")}
            for reason, count in status["rejected_by_reason"].items():
                pairs[f"events_rejected{{reason={reason}}}"] = (total(families, "modalwatch_events_rejected", reason=reason), count)
            pairs["violations_found"] = (sum(s.value for s in families["modalwatch_violations"].samples
                                             if s.name.endswith("_total")), status["violations_found"])
            pairs["sessions_live"] = (families["modalwatch_sessions_live"].samples[0].value, status["sessions_live"])
            return {name: pair for name, pair in pairs.items() if pair[0] != pair[1]}

        # The metrics follow the counters on the loop's 200 ms tick: scraped until they agree with a status.
        last: dict = {}

        def agreed() -> bool:
            nonlocal last
            status = daemon.status()
            text = urllib.request.urlopen(url, timeout=5).read().decode()
            last = differences(status, {f.name: f for f in prometheus.text_string_to_metric_families(text)})
            return not last

        assert support.poll_until(agreed, 10, interval=0.05), f"the metrics never agreed with status: {last}"
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(url.replace("/metrics", "/other"), timeout=5)
        sender.close()
    finally:
        assert daemon.stop() == 0


def test_both_commands_print_the_version_that_status_and_the_build_info_metric_name():
    daemon_version = subprocess.run([str(support.daemon_path()), "--version"], capture_output=True, timeout=20)
    cli_version = subprocess.run([str(support.cli_path()), "--version"], capture_output=True, timeout=20)
    assert daemon_version.returncode == 0 and cli_version.returncode == 0
    version = cli_version.stdout.decode().strip()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert daemon_version.stdout.decode().strip() == version
    # the one definition of it, which scripts/package.sh names the package after
    source = (ROOT / "Sources/ControlProtocol/ModalwatchVersion.swift").read_text()
    assert f'public static let string = "{version}"' in source


def test_metrics_carry_the_build_info_and_the_process_metrics_of_the_daemon(zctx, tmp_path):
    prometheus = pytest.importorskip("prometheus_client.parser")
    config = tmp_path / "modalwatchd.yaml"
    config.write_text("metrics: 127.0.0.1:0\n")
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--config", str(config)]).start()
    try:
        status = daemon.status()
        url = status["endpoints"]["metrics"][0]
        pid = daemon.process.pid

        def scrape() -> dict:
            text = urllib.request.urlopen(url, timeout=5).read().decode()
            return {f.name: f for f in prometheus.text_string_to_metric_families(text)}

        families = scrape()
        # modalwatch_build_info{version, swift} 1: the version status reports, the compiler's major.minor
        info = families["modalwatch_build_info"]
        assert info.type == "gauge" and len(info.samples) == 1 and info.samples[0].value == 1
        assert info.samples[0].labels["version"] == status["version"]
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True, timeout=60) if shutil.which("swift") else None
        if swift is not None and swift.returncode == 0:
            found = re.search(r"Swift version (\d+\.\d+)", swift.stdout + swift.stderr)
            assert found and info.samples[0].labels["swift"] == found.group(1)
        else:
            assert re.fullmatch(r"\d+\.\d+", info.samples[0].labels["swift"])

        def value(name: str) -> float:
            family = families[name.removesuffix("_total")]
            return [s.value for s in family.samples if s.name == name][0]

        # Standard names and types (the Prometheus client libraries' process collector).
        assert families["process_cpu_seconds"].type == "counter"
        for name in ("process_resident_memory_bytes", "process_open_fds", "process_max_fds", "process_start_time_seconds"):
            assert families[name].type == "gauge", name
        # Each against the kernel's own view of the daemon's process.
        limits = Path(f"/proc/{pid}/limits").read_text()
        soft_nofile = int(re.search(r"Max open files\s+(\d+)", limits).group(1))
        assert value("process_max_fds") == soft_nofile
        open_fds = len(os.listdir(f"/proc/{pid}/fd"))
        assert abs(value("process_open_fds") - open_fds) <= 4, (value("process_open_fds"), open_fds)
        rss_kib = int(re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text()).group(1))
        assert 0.5 * rss_kib * 1024 <= value("process_resident_memory_bytes") <= 2 * rss_kib * 1024
        stat = Path(f"/proc/{pid}/stat").read_text()
        start_ticks = int(stat[stat.rindex(")") + 2:].split()[19])
        boot = int(re.search(r"^btime (\d+)$", Path("/proc/stat").read_text(), re.M).group(1))
        assert abs(value("process_start_time_seconds") - (boot + start_ticks / os.sysconf("SC_CLK_TCK"))) < 0.02
        assert abs(value("process_start_time_seconds") - time.time()) < 120
        # CPU time only grows, and by what the daemon spent between the scrapes.
        first_cpu = value("process_cpu_seconds_total")
        assert first_cpu > 0
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        for round_ in range(20):
            sender.batch([{"v": 1, "type": "user.action", "session": f"P{round_}", "ts": T0 + i} for i in range(500)])
        daemon.wait_status(lambda s: s["events_received"] >= 10_000, timeout=30, what="10 000 events in")
        families = scrape()
        now_fields = Path(f"/proc/{pid}/stat").read_text()
        now_fields = now_fields[now_fields.rindex(")") + 2:].split()
        kernel_cpu = (int(now_fields[11]) + int(now_fields[12])) / os.sysconf("SC_CLK_TCK")
        assert first_cpu < value("process_cpu_seconds_total") <= kernel_cpu + 0.05
        sender.close()
    finally:
        assert daemon.stop() == 0


def test_a_history_of_0_1_0_is_converted_in_slices_at_the_first_start(zctx, tmp_path):
    # 0.1.0's file (Tests/Fixtures/history/0.1.0.sql: ids and fingerprints as BLOBs), 60,000 violations: more than
    # one slice of the conversion (50,000).
    state = tmp_path / "state"
    state.mkdir()
    history = state / "history.sqlite"
    recent = int(time.time() * 1000) - 60_000  # within the default retention of 30 days
    template = {"v": 1, "rule": "alert-frequency", "rev": 1, "module": "overuse", "severity": "warning", "edition": "current",
                "subject": None, "message": "m", "guideline": "g", "evidence": {}, "events": []}
    rows = []
    for n in range(60_000):
        body = dict(template, id=f"{n:032x}", fingerprint=f"{n:016x}", app="com.example.old" if n % 2 else "com.example.svc",
                    session=f"OLD{n % 97}", ts=T0 + n, observed=recent + n // 1000)
        rows.append(body)
    with sqlite3.connect(history) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(support.released_history_schema())
        db.executemany("INSERT INTO violations (id, fingerprint, rule, app, session, severity, ts, observed, json) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(bytes.fromhex(r["id"]), bytes.fromhex(r["fingerprint"]), r["rule"], r["app"], r["session"], r["severity"],
                         r["ts"], r["observed"], json.dumps(r, separators=(",", ":"))) for r in rows])
    newest_first = list(reversed(rows))

    def cli(*args: str) -> subprocess.CompletedProcess:
        return support.run_cli(["violations", "--state-dir", str(state), "--json", "--limit", "100", *args])

    # Before the daemon converted it, the CLI says so in one line.
    before = cli()
    assert before.returncode != 0 and "0.1.0's" in before.stderr.decode() and "converts it at its first start" in before.stderr.decode()

    # A slow machine converts for a few seconds before READY.
    daemon = support.Daemon(zctx, tmp_path).start(ready_timeout=60)
    try:
        log = daemon.log()
        slices = [re.search(r"converted=(\d+) .*remaining=(\d+)", line).groups() for line in log.splitlines()
                  if "converting 0.1.0's history" in line]
        assert slices == [("50000", "10000")], log
        assert "0.1.0's history is converted" in log and "converted=60000" in log, log
        reply = daemon.request({"cmd": "violations", "limit": 100})
        assert reply["ok"] and reply["violations"] == newest_first[:100], "ids, fields and order unchanged"
        only = daemon.request({"cmd": "violations", "app": "com.example.old", "session": "OLD5", "limit": 50})
        assert [v["id"] for v in only["violations"]] == [r["id"] for r in newest_first
                                                          if r["app"] == "com.example.old" and r["session"] == "OLD5"][:50]
        # New violations go in after the converted ones.
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        sender.events([start("NEW")] + alerts("NEW", 0, 4))
        assert support.poll_until(lambda: daemon.request({"cmd": "status"})["violations_stored"] >= 1, timeout=5)
        sender.close()
    finally:
        assert daemon.stop() == 0
    with sqlite3.connect(f"file:{history}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        assert tables == ["sqlite_sequence", "violation_rows"], tables
        assert db.execute("SELECT COUNT(*), MIN(seq), typeof(id) FROM violations WHERE session LIKE 'OLD%'").fetchone() == (60_000, 1, "text")
        # The columns of docs/spec/history.md, the generated ones from the old JSON.
        assert db.execute("SELECT module, edition, locale FROM violations WHERE seq = 1").fetchone() == ("overuse", "current", None)
    after = json.loads("[" + ",".join(cli().stdout.decode().splitlines()) + "]")
    olds = [v["id"] for v in after if v["session"] != "NEW"]
    assert after[0]["session"] == "NEW" and olds == [r["id"] for r in newest_first][:len(olds)], "the new after the converted"


def test_a_history_of_a_version_no_release_wrote_is_refused_by_name(zctx, tmp_path):
    # A file of an unreleased build's segments (GRDB's migrations v1 to v6): refused at start, in one line, left as it is.
    state = tmp_path / "state"
    state.mkdir()
    history = state / "history.sqlite"
    with sqlite3.connect(history) as db:
        db.executescript("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);"
                         "INSERT INTO grdb_migrations VALUES ('v1'), ('v2'), ('v3'), ('v4'), ('v5'), ('v6');"
                         "CREATE TABLE segments (first_seq INTEGER PRIMARY KEY, records BLOB NOT NULL);")
    before = history.read_bytes()
    (tmp_path / "empty.yaml").write_text("")
    result = subprocess.run([str(support.daemon_path()), "--state-dir", str(state), "--config", str(tmp_path / "empty.yaml")],
                            capture_output=True, timeout=30)
    assert result.returncode != 0
    errors = [line for line in result.stderr.decode().splitlines() if "history" in line]
    assert any("the schema migrations v1, v2, v3, v4, v5, v6 (an unreleased build's segments)" in line for line in errors), errors
    assert history.read_bytes() == before, "left as it is"
