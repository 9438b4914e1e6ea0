"""Fixtures of the systemd suite: the Debian package, the cached Debian root, and the suite's timings."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

import booted

_STARTED = time.monotonic()
TIMINGS: dict[str, float] = {}
NOTES: list[str] = []


def _terminated(signum, frame) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def pytest_configure(config: pytest.Config) -> None:
    if os.geteuid() != 0:
        pytest.exit("the systemd suite needs root (debootstrap, overlay mounts, systemd-nspawn)", returncode=2)
    # SIGTERM (timeout(1), CI) ends the run as ^C does: the fixtures' teardown powers the machines off.
    signal.signal(signal.SIGTERM, _terminated)


@pytest.fixture(scope="session")
def deb(tmp_path_factory) -> Path:
    """The Debian package: MODALWATCH_DEB, else scripts/package.sh of the debug build (SKIP_BUILD=1
    when .build/debug/modalwatchd exists)."""
    if os.environ.get("MODALWATCH_DEB"):
        path = Path(os.environ["MODALWATCH_DEB"]).resolve()
        assert path.is_file(), f"MODALWATCH_DEB={path}: no such file"
        NOTES.append(f"package: {path.name} (MODALWATCH_DEB)")
        return path
    started = time.monotonic()
    env = {**os.environ, "DIST": str(tmp_path_factory.mktemp("dist")), "CONFIGURATION": "debug", "COMPRESSION": "none"}
    if (booted.PACKAGE_ROOT / ".build/debug/modalwatchd").is_file():
        env["SKIP_BUILD"] = "1"
    if not any(Path(p, "swift").is_file() for p in env.get("PATH", "").split(":")) and Path("/opt/swift/usr/bin/swift").is_file():
        env["PATH"] = "/opt/swift/usr/bin:" + env.get("PATH", "")
    result = subprocess.run(["bash", str(booted.PACKAGE_ROOT / "scripts/package.sh")], capture_output=True, text=True,
                            timeout=3600, env=env, cwd=booted.PACKAGE_ROOT)
    assert result.returncode == 0, "scripts/package.sh: " + result.stdout[-2000:] + result.stderr[-6000:]
    path = Path(result.stdout.strip().splitlines()[-1])
    TIMINGS["package"] = time.monotonic() - started
    NOTES.append(f"package: {path.name}, built in {TIMINGS['package']:.0f} s")
    return path


@pytest.fixture(scope="session")
def base_root() -> Path:
    """The cached Debian 12 root (made with debootstrap the first time)."""
    root, seconds = booted.cached_root()
    if seconds is None:
        NOTES.append(f"root: {root} (cached)")
    else:
        TIMINGS["debootstrap"] = seconds
        NOTES.append(f"root: {root}, made with debootstrap in {seconds:.0f} s")
    return root


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    terminalreporter.section("systemd suite")
    for note in NOTES:
        terminalreporter.write_line(note)
    terminalreporter.write_line(f"duration: {time.monotonic() - _STARTED:.0f} s")
