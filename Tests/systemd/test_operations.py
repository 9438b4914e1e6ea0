"""An operator's day with the package under a real systemd: local settings in a drop-in, a reload
the daemon refuses, sharded instances with a metrics port each, an instance without its
`shards.env`, and an unattended upgrade to a newer package whose shipped configuration changed.
The tests run in order on one booted machine (booted.py), after the package's install and boot.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

import booted
from conftest import NOTES, TIMINGS

UNIT = "modalwatchd.service"
STREAM = "/var/tmp/stream.ndjson"
DROP_IN = "/etc/modalwatch/modalwatchd.yaml.d/50-local.yaml"
LOCAL_METRICS = "127.0.0.1:9464"
SHARDS = 2
SHARD_METRICS = ["127.0.0.1:9470", "127.0.0.1:9471"]


@pytest.fixture(scope="module")
def machine(base_root, deb, tmp_path_factory) -> Iterator[booted.Machine]:
    """The package installed, a drop-in with local settings laid down before the boot."""
    workdir = tmp_path_factory.mktemp("operations")
    m = booted.Machine(base_root, workdir)
    try:
        m.install(deb)
        shutil.copy2(booted.PACKAGE_ROOT / "demo/stream.ndjson", m.root / STREAM.lstrip("/"))
        m.write(DROP_IN, f"metrics: {LOCAL_METRICS}\nrules:\n  alert-frequency: {{ limit: 2, window: 10m }}\n")
        TIMINGS["operations boot"] = m.boot()
        yield m
    finally:
        if m.leader is not None:
            (workdir / "journal.txt").write_text(m.run(["journalctl", "-b", "--no-pager"], check=False, record=False).stdout)
        (workdir / "transcript.txt").write_text("\n\n".join(m.transcript) + "\n")
        m.close()


def status(m: booted.Machine, control: str | None = None) -> dict:
    args = ["modalwatch", "status", "--json"] + (["--control", control] if control else [])
    return json.loads(m.run(args).stdout)


def scrape(m: booted.Machine, address: str) -> str:
    """GET /metrics from inside the machine with bash's /dev/tcp (a minbase root has no curl); the
    reply, or "" when nothing answers within 10 s."""
    return booted.poll_until(lambda: scrape_once(m, address), timeout=10, interval=0.5) or ""


def scrape_once(m: booted.Machine, address: str) -> str:
    host, port = address.rsplit(":", 1)
    script = (f"exec 3<>/dev/tcp/{host}/{port}; printf 'GET /metrics HTTP/1.0\\r\\nHost: {host}\\r\\n\\r\\n' >&3; "
              "timeout 5 cat <&3")
    reply = m.run(["bash", "-c", script], check=False, timeout=20).stdout
    return reply if reply.startswith("HTTP/1.") else ""


def test_the_drop_ins_local_settings_are_in_force_from_the_first_start(machine):
    assert booted.poll_until(lambda: machine.show(UNIT, "ActiveState")["ActiveState"] == "active", timeout=20), \
        machine.report(UNIT)
    served = scrape(machine, LOCAL_METRICS)
    assert "200 OK" in (served.splitlines() or [""])[0] and "modalwatch_events_received_total" in served, served[:500]
    rules = json.loads(machine.run(["modalwatch", "rules", "--json", "--control", "ipc:///run/modalwatch/control.sock"]).stdout)
    frequency = next(r for r in rules["rules"] if r["id"] == "alert-frequency")
    limit = next(p for p in frequency["parameters"] if p["name"] == "limit")
    assert limit["value"] == 2, frequency


def test_a_reload_the_daemon_refuses_fails_systemctl_reload_and_keeps_the_old_configuration(machine):
    pid = machine.show(UNIT, "MainPID")["MainPID"]
    machine.write("/etc/modalwatch/modalwatchd.yaml.d/60-broken.yaml", "rules:\n  alert-frequency: { limit: many }\n")
    try:
        reloaded = machine.run(["systemctl", "reload", UNIT], check=False, timeout=60)
        assert reloaded.returncode != 0, "systemctl reload succeeded on a file the daemon refuses"
        # The reason at priority err, from the daemon and from ExecReload's `modalwatch reload`.
        errors = machine.journal(UNIT, priority="err")
        assert errors.count("60-broken.yaml") >= 2 and "alert-frequency" in errors, errors[-3000:]
        assert machine.show(UNIT, "ActiveState", "MainPID", "NRestarts") == {"ActiveState": "active", "MainPID": pid, "NRestarts": "0"}
        assert status(machine)["config_reloads_refused"] >= 1
    finally:
        machine.run(["rm", "-f", "/etc/modalwatch/modalwatchd.yaml.d/60-broken.yaml"])


def test_sharded_instances_serve_a_metrics_port_each(machine):
    machine.write("/etc/modalwatch/shards.env", f"MODALWATCH_SHARD_COUNT={SHARDS}\nMODALWATCH_SHARD_KEY=app\n")
    for index, address in enumerate(SHARD_METRICS):
        machine.write(f"/etc/modalwatch/shard-{index}.env", f"MODALWATCH_SHARD_ARGS=--metrics {address}\n")
    units = [f"modalwatchd@{index}.service" for index in range(SHARDS)]
    # The shared configuration's metrics: (the drop-in's 9464, which modalwatchd.service holds) is
    # overridden by each instance's --metrics.
    machine.run(["systemctl", "start", *units], timeout=60)
    for unit in units:
        assert booted.poll_until(lambda u=unit: machine.show(u, "ActiveState")["ActiveState"] == "active", timeout=20), \
            machine.report(unit)
    for index, address in enumerate(SHARD_METRICS):
        served = scrape(machine, address)
        assert "200 OK" in (served.splitlines() or [""])[0], (address, served[:300], machine.report(units[index]))
        reply = status(machine, f"ipc:///run/modalwatch/shard-{index}/control.sock")
        assert reply["endpoints"]["metrics"] == [f"http://{address}/metrics"], reply["endpoints"]
    for unit in units:
        assert machine.show(unit, "NRestarts")["NRestarts"] == "0"
    machine.run(["systemctl", "stop", *units], timeout=60)


def test_an_instance_without_shards_env_names_the_file_at_err_and_is_not_restarted(machine):
    machine.run(["rm", "-f", "/etc/modalwatch/shards.env"])
    unit = "modalwatchd@5.service"
    machine.run(["systemctl", "start", unit], check=False, timeout=60)
    assert booted.poll_until(lambda: machine.show(unit, "ActiveState")["ActiveState"] == "failed", timeout=20), \
        machine.report(unit)
    shown = machine.show(unit, "NRestarts", "ExecMainStatus")
    assert shown == {"NRestarts": "0", "ExecMainStatus": "2"}, shown
    errors = machine.journal(unit, priority="err")
    assert "/etc/modalwatch/shards.env" in errors and "MODALWATCH_SHARD_COUNT" in errors, machine.report(unit)


def stored_violations(m: booted.Machine) -> int:
    """The ids in the history (`modalwatch violations --json`: one violation a line)."""
    out = m.run(["modalwatch", "violations", "--json", "--limit", "10000"]).stdout
    return len({json.loads(line)["id"] for line in out.splitlines() if line.strip()})


def newer_package(deb: Path, folder: Path) -> tuple[Path, str]:
    """DEB repacked as the next release: a higher version and a shipped configuration that changed."""
    tree = folder / "tree"
    subprocess.run(["dpkg-deb", "-R", str(deb), str(tree)], check=True, capture_output=True, timeout=300)
    control = tree / "DEBIAN/control"
    text = control.read_text()
    version = re.search(r"^Version: (\S+)$", text, re.M).group(1)
    newer = version + "+next1"
    control.write_text(text.replace(f"Version: {version}", f"Version: {newer}"))
    shipped = tree / "etc/modalwatch/modalwatchd.yaml"
    shipped.write_text(shipped.read_text() + "\n# A comment the next release adds to the shipped file.\n")
    md5sums = tree / "DEBIAN/md5sums"
    if md5sums.exists():
        lines = []
        for line in md5sums.read_text().splitlines():
            digest, path = line.split(None, 1)
            if path == "etc/modalwatch/modalwatchd.yaml":
                digest = subprocess.run(["md5sum", str(shipped)], capture_output=True, text=True, check=True).stdout.split()[0]
            lines.append(f"{digest}  {path}")
        md5sums.write_text("\n".join(lines) + "\n")
    built = folder / f"modalwatch_{newer}_amd64.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Znone", "-b", str(tree), str(built)], check=True, capture_output=True, timeout=300)
    return built, newer


def test_an_unattended_upgrade_keeps_the_drop_in_the_history_and_the_sessions(machine, deb, tmp_path):
    machine.run(["modalwatch", "send", STREAM], timeout=60)
    before = booted.poll_until(lambda: (s := status(machine))["violations_published"] > 0 and s, timeout=20)
    assert before, status(machine)
    stored = stored_violations(machine)
    assert stored > 0
    pid = machine.show(UNIT, "MainPID")["MainPID"]

    upgrade, version = newer_package(deb, tmp_path)
    inside = f"/var/tmp/{upgrade.name}"
    shutil.copy2(upgrade, machine.root / inside.lstrip("/"))
    # What unattended-upgrades does: dpkg with no terminal; a conffile question would fail it.
    upgraded = machine.run(["env", "DEBIAN_FRONTEND=noninteractive", "dpkg", "-i", inside], check=False, timeout=300)
    assert upgraded.returncode == 0, upgraded.stdout[-3000:] + upgraded.stderr[-3000:]
    assert "Configuration file" not in upgraded.stdout, upgraded.stdout
    package = machine.run(["dpkg-query", "-W", "-f", "${Status} ${Version}", "modalwatch"]).stdout
    assert package == f"install ok installed {version}", package
    shipped = (machine.root / "etc/modalwatch/modalwatchd.yaml").read_text()
    assert "the next release adds" in shipped, "the unmodified conffile is the new release's"
    assert (machine.root / DROP_IN.lstrip("/")).read_text().startswith(f"metrics: {LOCAL_METRICS}")

    # The postinst restarted the service: a new process, active, with the drop-in in force.
    assert booted.poll_until(lambda: (s := machine.show(UNIT, "ActiveState", "MainPID"))["ActiveState"] == "active"
                             and s["MainPID"] not in (pid, "0"), timeout=30), machine.report(UNIT)
    assert "200 OK" in (scrape(machine, LOCAL_METRICS).splitlines() or [""])[0]
    after = status(machine)
    assert after["version"] == before["version"]
    kept = stored_violations(machine)
    assert kept == stored, (kept, stored)
    NOTES.append(f"unattended upgrade to {version}: dpkg exit 0, drop-in kept, {kept} violations kept")
