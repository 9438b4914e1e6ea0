"""A Debian 12 root booted with systemd-nspawn, for the units' tests under a real systemd.

The root is made once with debootstrap and kept under /var/cache/modalwatch-tests/ (a marker
file says it is complete and what it holds); each machine runs on an overlay of it whose
writes go to a folder of the test's own, so the cache stays as debootstrap left it. Before
the boot, commands run in the root with `systemd-nspawn --pipe` (dpkg -i of the package, the
files a test lays down); after it, with nsenter into the namespaces of the container's init.
Every wait is bounded; `Machine.close()` powers the container off (SIGKILL past a bound),
unmounts the overlay and removes its writes.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("MODALWATCH_TESTS_CACHE", "/var/cache/modalwatch-tests"))
SUITE = "bookworm"
INCLUDE = "systemd,systemd-sysv,dbus,adduser,libzmq5,libsqlite3-0,libpq5,libicu72"
DEFAULT_MIRROR = "http://deb.debian.org/debian"
# What the boot needs on this kind of host: no machined to register with, the scope of the
# caller kept, and a network namespace of the container's own (loopback only).
NSPAWN_FLAGS = ["--private-network", "--register=no", "--keep-unit"]
INSIDE_ENV = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8", "SYSTEMD_COLORS=0", "SYSTEMD_PAGER=",
              "SYSTEMD_LESS=", "TERM=dumb"]


def poll_until(predicate: Callable[[], Any], timeout: float, interval: float = 0.2) -> Any:
    """The first truthy value of `predicate()` within `timeout` seconds, else the last value (falsy)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


def host_tools() -> None:
    """Installs debootstrap and systemd-nspawn (systemd-container) on the host when missing."""
    missing = [package for tool, package in (("debootstrap", "debootstrap"), ("systemd-nspawn", "systemd-container"))
               if shutil.which(tool) is None]
    if not missing:
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", "-qq", "--no-install-recommends", *missing]
    if subprocess.run(install, env=env, capture_output=True, timeout=900).returncode != 0:
        subprocess.run(["apt-get", "-o", "DPkg::Lock::Timeout=300", "update", "-qq"], env=env, check=True,
                       capture_output=True, timeout=900)
        result = subprocess.run(install, env=env, capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, f"apt-get install {' '.join(missing)}: {result.stdout[-2000:]}{result.stderr[-2000:]}"


def debian_mirror() -> str:
    """The Debian archive the host's apt uses for bookworm (one-line and deb822 sources), else deb.debian.org."""
    files = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*.list")),
             *sorted(Path("/etc/apt/sources.list.d").glob("*.sources"))]
    for path in files:
        try:
            text = path.read_text()
        except OSError:
            continue
        if path.suffix == ".sources":
            for stanza in re.split(r"\n\s*\n", text):
                fields = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", stanza, re.M))
                if SUITE in fields.get("Suites", "").split() and "deb" in fields.get("Types", "").split():
                    for uri in fields.get("URIs", "").split():
                        if uri.startswith("http") and uri.rstrip("/").endswith("/debian"):
                            return uri
        else:
            for line in text.splitlines():
                found = re.match(r"^\s*deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+(\S+)", line)
                if found and found.group(2) == SUITE and found.group(1).rstrip("/").endswith("/debian"):
                    return found.group(1)
    return DEFAULT_MIRROR


def cached_root() -> tuple[Path, float | None]:
    """The cached Debian root, made now if it is missing or incomplete; and the seconds debootstrap
    took (None: the cache was used)."""
    root, marker = CACHE / SUITE, CACHE / f"{SUITE}.complete"
    wanted = f"suite={SUITE} variant=minbase include={INCLUDE}\n"
    if marker.is_file() and marker.read_text() == wanted and (root / "usr/lib/systemd/systemd").is_file():
        return root, None
    host_tools()
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = CACHE / f"{SUITE}.partial"
    for stale in (partial, root):
        if stale.exists():
            shutil.rmtree(stale)
    marker.unlink(missing_ok=True)
    started = time.monotonic()
    result = subprocess.run(["debootstrap", "--variant=minbase", f"--include={INCLUDE}", SUITE, str(partial), debian_mirror()],
                            capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, "debootstrap: " + result.stdout[-3000:] + result.stderr[-3000:]
    partial.rename(root)
    marker.write_text(wanted)
    return root, time.monotonic() - started


class Machine:
    """A copy (an overlay) of the cached root: prepared with `prepare`, then booted with `boot`."""

    def __init__(self, base: Path, workdir: Path) -> None:
        host_tools()
        self.workdir = workdir
        self.root = workdir / "root"
        self.console = workdir / "console.log"
        self.transcript: list[str] = []
        self.nspawn: subprocess.Popen | None = None
        self.leader: int | None = None
        for name in ("upper", "work", "root"):
            (workdir / name).mkdir(parents=True)
        subprocess.run(["mount", "-t", "overlay", "overlay", "-o",
                        f"lowerdir={base},upperdir={workdir / 'upper'},workdir={workdir / 'work'}", str(self.root)],
                       check=True, capture_output=True, timeout=30)
        self.mounted = True

    def _record(self, where: str, args: list[str], result: subprocess.CompletedProcess) -> str:
        entry = f"{where}# {shlex.join(args)}  [exit {result.returncode}]\n{(result.stdout + result.stderr).rstrip()[:4000]}"
        self.transcript.append(entry)
        return entry

    def prepare(self, args: list[str], timeout: float = 300, check: bool = True) -> subprocess.CompletedProcess:
        """Runs ARGS in the root before it boots (systemd-nspawn without -b)."""
        assert self.nspawn is None, "prepare() is for the root before the boot"
        command = ["systemd-nspawn", "-q", "-D", str(self.root), "--pipe", *NSPAWN_FLAGS, "--", *args]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        entry = self._record("prepare", args, result)
        if check:
            assert result.returncode == 0, entry
        return result

    def write(self, path: str, text: str, mode: int = 0o644) -> None:
        """Writes a file into the root (before or after the boot: the overlay is shared)."""
        target = self.root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        target.chmod(mode)
        self.transcript.append(f"write {path} ({oct(mode)}):\n{text.rstrip()}")

    def install(self, deb: Path) -> None:
        """Copies the package into the root and installs it there with dpkg -i (nothing starts: no systemd runs yet)."""
        inside = f"/var/tmp/{deb.name}"
        shutil.copy2(deb, self.root / inside.lstrip("/"))
        self.prepare(["dpkg", "-i", inside])
        (self.root / inside.lstrip("/")).unlink()

    def boot(self, timeout: float = 60) -> float:
        """Boots the root and waits for the boot to finish (`systemctl is-system-running --wait`); returns its seconds."""
        started = time.monotonic()
        console = open(self.console, "wb")
        self.nspawn = subprocess.Popen(["systemd-nspawn", "-q", "-D", str(self.root), "-b", *NSPAWN_FLAGS],
                                       stdin=subprocess.DEVNULL, stdout=console, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        console.close()

        def leader() -> int | None:
            if self.nspawn.poll() is not None:
                raise AssertionError(f"systemd-nspawn exited ({self.nspawn.returncode}):\n{self.console_tail()}")
            children = Path(f"/proc/{self.nspawn.pid}/task/{self.nspawn.pid}/children")
            try:
                pids = children.read_text().split()
            except OSError:
                return None
            # The container's init, once it is systemd (not the child nspawn forks before the exec).
            for pid in pids:
                try:
                    if Path(f"/proc/{pid}/comm").read_text().strip() == "systemd":
                        return int(pid)
                except OSError:
                    pass
            return None

        self.leader = poll_until(leader, timeout=timeout, interval=0.1)
        assert self.leader, f"no init in the container within {timeout} s:\n{self.console_tail()}"
        state = poll_until(lambda: self.run(["systemctl", "is-system-running", "--wait"], check=False, timeout=timeout,
                                            record=False).stdout.strip() in ("running", "degraded"),
                           timeout=timeout, interval=0.5)
        assert state, f"the boot did not finish within {timeout} s:\n{self.console_tail()}"
        return time.monotonic() - started

    def run(self, args: list[str], check: bool = True, timeout: float = 60, record: bool = True) -> subprocess.CompletedProcess:
        """Runs ARGS as root inside the booted container (every namespace of its init, a clean environment)."""
        assert self.leader is not None, "run() is for the booted container"
        command = ["nsenter", "-t", str(self.leader), "-a", "/usr/bin/env", "-i", *INSIDE_ENV, *args]
        try:
            # A session of its own: a signal a command inside sends to its process group stays there.
            result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                                    start_new_session=True)
        except subprocess.TimeoutExpired as expired:
            out = expired.stdout or ""
            out = out.decode(errors="replace") if isinstance(out, bytes) else out
            result = subprocess.CompletedProcess(args, 124, out, f"timed out after {timeout} s")
        entry = self._record("machine", args, result) if record else ""
        if check:
            assert result.returncode == 0, entry or self._record("machine", args, result)
        return result

    def show(self, unit: str, *properties: str) -> dict[str, str]:
        """`systemctl show -p ...` of UNIT, as a dict."""
        out = self.run(["systemctl", "show", unit, *[f"--property={p}" for p in properties]], record=False).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def journal(self, unit: str, priority: str | None = None) -> str:
        """The unit's journal of this boot, message text only."""
        args = ["journalctl", "--no-pager", "-b", "-u", unit, "-o", "short-monotonic"]
        if priority:
            args += ["-p", priority]
        return self.run(args, check=False, record=False).stdout

    def report(self, unit: str) -> str:
        """`systemctl status` and the journal of UNIT, for an assertion's message."""
        status = self.run(["systemctl", "status", "--no-pager", "--lines=0", unit], check=False, record=False)
        return status.stdout + "\n" + self.journal(unit)[-6000:]

    def console_tail(self, lines: int = 40) -> str:
        try:
            text = self.console.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines()[-lines:])

    def close(self) -> None:
        """Powers the container off (SIGTERM to nspawn, bounded; SIGKILL after), unmounts, removes the writes."""
        if self.nspawn is not None and self.nspawn.poll() is None:
            self.nspawn.send_signal(signal.SIGTERM)
            try:
                self.nspawn.wait(timeout=20)
            except subprocess.TimeoutExpired:
                if self.leader is not None:
                    try:
                        os.kill(self.leader, signal.SIGKILL)  # the PID namespace's init: everything in it ends
                    except ProcessLookupError:
                        pass
                self.nspawn.kill()
                self.nspawn.wait(timeout=10)
        self.nspawn, self.leader = None, None
        if self.mounted:
            unmounted = subprocess.run(["umount", str(self.root)], capture_output=True, timeout=30)
            if unmounted.returncode != 0:
                subprocess.run(["umount", "-l", str(self.root)], capture_output=True, timeout=30)
            self.mounted = False
        for name in ("upper", "work", "root"):
            shutil.rmtree(self.workdir / name, ignore_errors=True)
