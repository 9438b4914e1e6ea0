"""The systemd units for sharding: `modalwatchd@.service` (one daemon per shard index) and
`modalwatch-forward.service`, installed by scripts/install.sh and checked by `systemd-analyze verify`."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

import e2e_support as support

ROOT = support.PACKAGE_ROOT


def test_the_shard_units_install_and_pass_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian: systemd)")
    destdir = tmp_path / "root"
    env = {**os.environ, "DESTDIR": str(destdir), "CONFIGURATION": "debug", "SKIP_BUILD": "1"}
    subprocess.run(["bash", str(ROOT / "scripts" / "install.sh")], check=True, env=env, capture_output=True, timeout=120)
    units = destdir / "usr/local/lib/systemd/system"
    bindir = destdir / "usr/local/bin"
    checked = tmp_path / "units"
    checked.mkdir()
    # verify checks ExecStart's binary exists: point the units at the staged ones. A template
    # is verified through an instance of it.
    for name, as_name in (("modalwatchd@.service", "modalwatchd@2.service"), ("modalwatch-forward.service", "modalwatch-forward.service")):
        text = (units / name).read_text().replace("/usr/local/bin/", f"{bindir}/")
        (checked / as_name).write_text(text)
        result = subprocess.run([analyze, "verify", "--man=no", str(checked / as_name)], capture_output=True, timeout=60)
        complaints = [line for line in result.stderr.decode().splitlines() if as_name in line]
        assert result.returncode == 0 and not complaints, result.stderr.decode()
    template = (units / "modalwatchd@.service").read_text()
    assert "--shard %i/${MODALWATCH_SHARD_COUNT}" in template and "StateDirectory=modalwatch/shard-%i" in template
    assert "\nExecReload=/usr/local/bin/modalwatch reload --control ipc:///run/modalwatch/shard-%i/control.sock\n" in template
    # each shard runs as the modalwatch user: members of its group use the CLI against every shard
    assert "\nUser=modalwatch\n" in template and "\nGroup=modalwatch\n" in template and "DynamicUser" not in template
    forward = (units / "modalwatch-forward.service").read_text()
    assert f"{bindir}" not in forward and "/usr/local/bin/modalwatch forward" in forward


def test_the_forward_unit_binds_loopback_unless_told_and_is_bounded():
    """The forwarder's frontend and backend default to loopback (a file in /etc/modalwatch may
    widen them, with CURVE), and descriptors, memory and threads are bounded."""
    unit = (ROOT / "systemd" / "modalwatch-forward.service").read_text()
    service = unit.split("[Service]", 1)[1].split("[Install]", 1)[0]
    lines = [line.strip() for line in service.splitlines() if line.strip() and not line.strip().startswith("#")]
    settings: dict[str, list[str]] = {}
    for line in lines:
        key, _, value = line.partition("=")
        settings.setdefault(key, []).append(value)
    exec_start = settings["ExecStart"][0]
    assert "0.0.0.0" not in exec_start, exec_start
    environment = dict(value.split("=", 1) for value in settings.get("Environment", []))
    assert "--frontend ${MODALWATCH_FORWARD_FRONTEND}" in exec_start, exec_start
    assert "--backend ${MODALWATCH_FORWARD_BACKEND}" in exec_start, exec_start
    assert environment["MODALWATCH_FORWARD_FRONTEND"] == "tcp://127.0.0.1:7460"
    assert environment["MODALWATCH_FORWARD_BACKEND"] == "tcp://127.0.0.1:7461"
    # The environment file comes after the defaults, so it overrides them.
    assert service.index("EnvironmentFile=") > service.index("Environment=MODALWATCH_FORWARD_BACKEND")
    for bound in ("LimitNOFILE", "MemoryMax", "TasksMax"):
        assert bound in settings, f"{bound} missing from the forward unit"


def test_an_instance_without_shards_env_says_so_in_one_line_and_is_not_restarted(tmp_path):
    """Without /etc/modalwatch/shards.env the template's `${MODALWATCH_SHARD_COUNT}` and
    `${MODALWATCH_SHARD_KEY}` are empty: the daemon names the file and exits 2, which the unit
    does not restart (a missing file is not mended by trying again)."""
    template = (ROOT / "systemd" / "modalwatchd@.service").read_text()
    assert "\nEnvironmentFile=-/etc/modalwatch/shards.env\n" in template
    assert "\nRestartPreventExitStatus=2\n" in template
    result = subprocess.run([str(support.daemon_path()), "--shard", "0/", "--shard-key", "", "--state-dir", str(tmp_path)],
                            capture_output=True, timeout=30)
    assert result.returncode == 2, result
    first = result.stderr.decode().splitlines()[0]
    assert "/etc/modalwatch/shards.env" in first and "MODALWATCH_SHARD_COUNT" in first, first
