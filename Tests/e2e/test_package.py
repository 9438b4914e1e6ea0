"""The Debian package built by scripts/package.sh: what it holds, and that it installs and runs
where there is no Swift toolchain, used by a member of the `modalwatch` group who is not root.

The package is built once for this file (a release build, reused when it is up to date). The
install runs as root in a mount and network namespace of its own (`unshare`): an overlay over
this machine's root whose writes go to a tmpfs, so the real system is untouched, with an empty
tmpfs over /opt/swift (the toolchain). There `dpkg -i` installs the package for real (the postinst
makes the user and group and enables the unit; no systemd runs there, so nothing starts), and the
test starts the daemon as the installed unit says (User=, Group=, UMask=, RuntimeDirectory=,
StateDirectory=, ExecStart=), sends the demo stream and reads the violations with the CLI as a
member of the group; someone outside the group cannot. The example rule module in Swift, built
out of tree with the same toolchain, loads and runs there too.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Iterator

import pytest

import e2e_support as support
from test_swift_module import LIBRARY as HOUSE_LIBRARY
from test_swift_module import house_rules  # noqa: F401  (a fixture: the out-of-tree module, built)

# With test_swift_module.py on one pytest-xdist worker: both build Examples/swift-module.
pytestmark = pytest.mark.xdist_group("swift-module")

ROOT = support.PACKAGE_ROOT
CONTROL = "ipc:///run/modalwatch/control.sock"
MODULES = ["action-sheet", "alert-content", "modality", "overuse"]
SUBCOMMANDS = ["status", "sessions", "session", "top", "tail", "violations", "rules", "check", "send", "forward",
               "keygen", "report", "reload"]


@pytest.fixture(scope="module")
def deb(tmp_path_factory) -> Path:
    """Builds the package (scripts/package.sh, release; MODALWATCH_PACKAGE_CONFIGURATION=debug
    packages the debug build instead, uncompressed) and returns its path; MODALWATCH_DEB names one
    built already."""
    if os.environ.get("MODALWATCH_DEB"):
        return Path(os.environ["MODALWATCH_DEB"])
    started = time.monotonic()
    env = {**os.environ, "DIST": str(tmp_path_factory.mktemp("dist")),
           "CONFIGURATION": os.environ.get("MODALWATCH_PACKAGE_CONFIGURATION", "release")}
    if env["CONFIGURATION"] == "debug":
        env["COMPRESSION"] = "none"
    result = subprocess.run(["bash", str(ROOT / "scripts" / "package.sh")], capture_output=True, text=True, timeout=3600, env=env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    path = Path(result.stdout.strip().splitlines()[-1])
    print(f"scripts/package.sh: {path.name}, {path.stat().st_size} bytes, {time.monotonic() - started:.0f} s")
    return path


def contents(deb: Path) -> dict[str, str]:
    """`dpkg -c`: each path (without the leading '.') and its mode string."""
    listing = subprocess.run(["dpkg", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    entries = {}
    for line in listing.splitlines():
        fields = line.split(None, 5)
        entries[fields[5].split(" -> ")[0].removeprefix(".").rstrip("/") or "/"] = fields[0]
    return entries


def field(deb: Path, name: str) -> str:
    return subprocess.run(["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True, check=True).stdout.strip()


def unit_settings(text: str) -> dict[str, str]:
    """The [Service] settings of a unit, the last of each name."""
    settings, section = {}, ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings[key] = value
    return settings


def test_dpkg_c_shows_binaries_runtime_units_conffile_man_pages_and_completions(deb):
    entries = contents(deb)
    for binary in ("/usr/bin/modalwatchd", "/usr/bin/modalwatch"):
        assert entries.get(binary) == "-rwxr-xr-x", (binary, entries.get(binary))
    for module in MODULES:
        assert entries.get(f"/usr/lib/modalwatch/rules/libmodalwatch-rules-{module}.so") == "-rw-r--r--", module
    runtime = {Path(p).name for p in entries if re.fullmatch(r"/usr/lib/modalwatch/[^/]+\.so", p)}
    assert {"libswiftCore.so", "libswift_Concurrency.so", "libswiftDispatch.so", "libdispatch.so", "libBlocksRuntime.so",
            "libFoundation.so", "libFoundationEssentials.so", "lib_FoundationICU.so",
            "libswiftSwiftOnoneSupport.so"} <= runtime, sorted(runtime)
    expected = [
        "/lib/systemd/system/modalwatchd.service", "/lib/systemd/system/modalwatchd@.service",
        "/lib/systemd/system/modalwatch-forward.service", "/usr/lib/sysusers.d/modalwatch.conf",
        "/etc/modalwatch/modalwatchd.yaml", "/etc/modalwatch/modalwatchd.yaml.d",
        "/usr/share/man/man1/modalwatch.1.gz", "/usr/share/man/man8/modalwatchd.8.gz",
        "/usr/share/man/man5/modalwatchd.yaml.5.gz",
        "/usr/share/bash-completion/completions/modalwatch", "/usr/share/zsh/vendor-completions/_modalwatch",
        "/usr/share/fish/vendor_completions.d/modalwatch.fish",
        "/usr/share/doc/modalwatch/copyright", "/usr/share/doc/modalwatch/changelog.Debian.gz",
        "/usr/share/doc/modalwatch/changelog.gz", "/usr/share/doc/modalwatch/README.md",
        "/usr/share/doc/modalwatch/spec/events.md", "/usr/share/doc/modalwatch/spec/event.schema.json",
        "/usr/share/doc/modalwatch/spec/interfaces.md", "/usr/share/doc/modalwatch/spec/rules.md",
        "/usr/share/doc/modalwatch/monitoring.md", "/usr/share/modalwatch/monitoring/modalwatch.rules.yml",
        "/usr/share/modalwatch/monitoring/modalwatch.rules.test.yml",
        "/usr/share/modalwatch/monitoring/modalwatch-dashboard.json",
        "/usr/share/modalwatch/demo/stream.ndjson",
    ]
    assert [path for path in expected if path not in entries] == []
    assert not [p for p in entries if "/opt/" in p or p.startswith("/usr/local")]
    # the version: the one the CLI prints, with a Debian revision
    version = support.run_cli(["--version"]).stdout.decode().strip()
    assert re.fullmatch(re.escape(version) + r"-\d+", field(deb, "Version")), field(deb, "Version")
    assert deb.name == f"modalwatch_{field(deb, 'Version')}_amd64.deb"
    depends = [d.strip().split(" ")[0] for d in field(deb, "Depends").split(",")]
    assert {"libzmq5", "libsqlite3-0", "libicu72", "libc6", "adduser"} <= set(depends), depends
    assert not [d for d in depends if "swift" in d]


def test_the_control_files_the_conffile_and_the_units(deb, tmp_path):
    subprocess.run(["dpkg-deb", "-R", str(deb), str(tmp_path / "pkg")], check=True)
    pkg = tmp_path / "pkg"
    assert (pkg / "DEBIAN/conffiles").read_text().split() == ["/etc/modalwatch/modalwatchd.yaml"]
    postinst = (pkg / "DEBIAN/postinst").read_text()
    assert "addgroup --system" in postinst and "adduser --system" in postinst
    assert "deb-systemd-helper enable 'modalwatchd.service'" in postinst
    assert "deb-systemd-invoke stop 'modalwatchd.service'" in (pkg / "DEBIAN/prerm").read_text()
    assert "deb-systemd-helper purge 'modalwatchd.service'" in (pkg / "DEBIAN/postrm").read_text()
    # the configuration holds the service's endpoints; the unit passes none of them
    config = (pkg / "etc/modalwatch/modalwatchd.yaml").read_text()
    assert re.search(r"^control: ipc:///run/modalwatch/control\.sock$", config, re.M), config
    # short: the endpoints only; the whole commented file is the example
    keys = [line.split(":", 1)[0] for line in config.splitlines() if line and not line.startswith("#")]
    assert keys == ["events", "publish", "control"], keys
    example = (pkg / "usr/share/doc/modalwatch/examples/modalwatchd.yaml").read_text()
    assert "checkpoint_interval:" in example and "history:" in example
    unit = unit_settings((pkg / "lib/systemd/system/modalwatchd.service").read_text())
    command = shlex.split(unit["ExecStart"])
    assert command == ["/usr/bin/modalwatchd", "--config", "/etc/modalwatch/modalwatchd.yaml"], command
    assert (unit["User"], unit["Group"], unit["RuntimeDirectory"], unit["RuntimeDirectoryMode"], unit["UMask"]) == (
        "modalwatch", "modalwatch", "modalwatch", "0750", "0007"), unit
    assert "DynamicUser" not in unit
    # Documentation= names what the package installs
    text = (pkg / "lib/systemd/system/modalwatchd.service").read_text()
    documentation = re.search(r"^Documentation=(.*)$", text, re.M).group(1).split()
    assert documentation == ["man:modalwatchd(8)", "file:///usr/share/doc/modalwatch/README.md"], documentation
    assert (pkg / "usr/share/doc/modalwatch/README.md").exists() and (pkg / "usr/share/man/man8/modalwatchd.8.gz").exists()
    for name in ("modalwatchd@.service", "modalwatch-forward.service"):
        other = (pkg / "lib/systemd/system" / name).read_text()
        assert "/usr/local" not in other and "file:///usr/share/doc/modalwatch/SCALING.md" in other, name
    assert (pkg / "usr/share/doc/modalwatch/SCALING.md").exists()
    # every ELF file stripped, its RUNPATH relative to itself, nothing of the toolchain
    elves = [pkg / "usr/bin/modalwatchd", pkg / "usr/bin/modalwatch", *sorted((pkg / "usr/lib/modalwatch").rglob("*.so"))]
    for elf in elves:
        dynamic = subprocess.run(["readelf", "-d", str(elf)], capture_output=True, text=True, check=True).stdout
        runpath = re.search(r"\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[(.*)\]", dynamic)
        assert runpath and runpath.group(1).startswith("$ORIGIN") and "/opt" not in runpath.group(1), (elf, dynamic)
        symbols = subprocess.run(["readelf", "-S", str(elf)], capture_output=True, text=True, check=True).stdout
        assert ".symtab" not in symbols and ".debug_info" not in symbols, f"{elf} is not stripped"
    # the man pages: modalwatch.1 with every subcommand; modalwatchd.8 and modalwatchd.yaml.5 as written, dated and versioned
    page = subprocess.run(["zcat", str(pkg / "usr/share/man/man1/modalwatch.1.gz")], capture_output=True, text=True, check=True).stdout
    assert page.startswith(".") and ".Dt MODALWATCH 1" in page, page[:300]
    assert [name for name in SUBCOMMANDS if f"modalwatch {name}" not in page and f".It Em {name}" not in page] == []
    daemon_page = subprocess.run(["zcat", str(pkg / "usr/share/man/man8/modalwatchd.8.gz")], capture_output=True, text=True, check=True).stdout
    version = support.run_cli(["--version"]).stdout.decode().strip()
    assert daemon_page.startswith(f'.TH MODALWATCHD 8 "') and f'"modalwatch {version}"' in daemon_page.splitlines()[0]
    assert "check\\-config" in daemon_page and ".SH EXIT STATUS" in daemon_page and ".SH SIGNALS" in daemon_page
    config_page = subprocess.run(["zcat", str(pkg / "usr/share/man/man5/modalwatchd.yaml.5.gz")], capture_output=True, text=True, check=True).stdout
    assert config_page.startswith(".TH MODALWATCHD.YAML 5 ") and "checkpoint_interval" in config_page
    for shell_file, marker in (("usr/share/bash-completion/completions/modalwatch", "complete "),
                               ("usr/share/zsh/vendor-completions/_modalwatch", "#compdef modalwatch"),
                               ("usr/share/fish/vendor_completions.d/modalwatch.fish", "complete -c 'modalwatch'")):
        assert marker in (pkg / shell_file).read_text(), shell_file


class HiddenToolchainRoot:
    """A root over this machine's, in namespaces of its own: an overlay (writes to a tmpfs) with
    /opt/swift hidden, its own /run, /tmp and loopback. Commands run chrooted into it."""

    def __init__(self, workdir: Path) -> None:
        self.base = workdir
        self.root = workdir / "root"
        self.transcript: list[str] = []
        self.holder = subprocess.Popen(["unshare", "--mount", "--net", "--fork", "--kill-child", "sleep", "infinity"])
        # nsenter -t joins the holder's namespaces: wait until it is in its own.
        own = lambda kind: os.readlink(f"/proc/{self.holder.pid}/ns/{kind}") != os.readlink(f"/proc/self/ns/{kind}")
        assert support.poll_until(lambda: own("mnt") and own("net"), 10), "unshare made no namespaces of its own"
        layers = workdir / "layers"
        for folder in (self.root, layers):
            folder.mkdir()
        self.host(f"""
            set -e
            mount --make-rprivate /
            mount -t tmpfs -o mode=0755 tmpfs {layers}
            mkdir {layers}/upper {layers}/work
            mount -t overlay overlay -o lowerdir=/,upperdir={layers}/upper,workdir={layers}/work {self.root}
            mount -t proc proc {self.root}/proc
            mount --rbind /dev {self.root}/dev
            mount -t tmpfs -o mode=0755 tmpfs {self.root}/run
            mount -t tmpfs -o mode=1777 tmpfs {self.root}/tmp
            mount -t tmpfs -o ro,mode=0755 tmpfs {self.root}/opt/swift
            ip link set lo up
        """)

    def host(self, script: str) -> str:
        """Runs a shell script in the namespaces, outside the root."""
        result = subprocess.run(["nsenter", "-t", str(self.holder.pid), "-m", "-n", "sh", "-c", script],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def command(self, args: list[str], user: str | None = None, umask: str | None = None) -> list[str]:
        """The command line that runs ARGS in the root (as USER with its groups, else root)."""
        inner = ["env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8", "NO_COLOR=1", "HOME=/tmp"]
        if user is not None:
            inner += ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups"]
        if umask is not None:
            inner += ["sh", "-c", f'umask {umask}; exec "$@"', "sh"]
        return ["nsenter", "-t", str(self.holder.pid), "-m", "-n", "chroot", str(self.root), *inner, *args]

    def run(self, args: list[str], user: str | None = None, timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run(self.command(args, user), capture_output=True, text=True, timeout=timeout)
        prompt = "$" if user else "#"
        self.transcript.append(f"{user or 'root'}{prompt} {shlex.join(args)}  [exit {result.returncode}]\n"
                               + (result.stdout + result.stderr).rstrip()[:3000])
        if check:
            assert result.returncode == 0, self.transcript[-1]
        return result

    def close(self) -> None:
        self.holder.kill()
        self.holder.wait(timeout=10)


@pytest.fixture
def hidden_root(tmp_path) -> Iterator[HiddenToolchainRoot]:
    if os.geteuid() != 0:
        pytest.skip("installing the package into a namespace needs root (unshare, overlay, chroot)")
    for tool in ("unshare", "nsenter", "setpriv"):
        assert shutil.which(tool), f"{tool} is missing (util-linux)"
    root = HiddenToolchainRoot(tmp_path)
    try:
        yield root
    finally:
        (tmp_path / "transcript.txt").write_text("\n\n".join(root.transcript) + "\n")
        root.close()


def test_the_package_installs_and_runs_without_the_toolchain_for_a_member_of_the_group(deb, hidden_root, house_rules):
    r = hidden_root
    shutil.copy2(deb, r.base / deb.name)
    stream = ROOT / "demo" / "stream.ndjson"
    house = house_rules / HOUSE_LIBRARY
    r.host(f"cp {shlex.quote(str(r.base / deb.name))} {stream} {house} {r.root}/tmp/")

    # No toolchain in there.
    assert r.run(["sh", "-c", "ls -A /opt/swift; command -v swift || echo no swift"]).stdout.strip() == "no swift"

    # The real install: dpkg -i; the postinst makes the user and group and enables the unit.
    r.run(["dpkg", "-i", f"/tmp/{deb.name}"], timeout=300)
    assert "install ok installed" in r.run(["dpkg-query", "-W", "-f", "${Status}", "modalwatch"]).stdout
    user = r.run(["getent", "passwd", "modalwatch"]).stdout.strip().split(":")
    assert user[5] == "/var/lib/modalwatch" and user[6].endswith("nologin") and int(user[2]) < 1000, user
    assert r.run(["readlink", "/etc/systemd/system/multi-user.target.wants/modalwatchd.service"]).stdout.strip() \
        == "/lib/systemd/system/modalwatchd.service"

    # Every ELF file of the package resolves its libraries, none under /opt/swift.
    files = r.run(["dpkg", "-L", "modalwatch"]).stdout.split()
    elves = [f for f in files if f.startswith("/usr/bin/") or f.endswith(".so")]
    assert len(elves) >= 2 + len(MODULES) + 8, elves
    for elf in elves:
        libraries = r.run(["ldd", elf]).stdout
        assert "not found" not in libraries and "/opt/swift" not in libraries, (elf, libraries)
        for name, path in re.findall(r"(lib(?:swift|_?Foundation|dispatch|BlocksRuntime)\S*) => (\S+)", libraries):
            assert os.path.normpath(path) == f"/usr/lib/modalwatch/{name}", (elf, libraries)

    # Two people: alice in the group modalwatch, bob not.
    for name in ("alice", "bob"):
        r.run(["adduser", "--disabled-password", "--gecos", "", "--quiet", name])
    r.run(["adduser", "--quiet", "alice", "modalwatch"])

    # The daemon, started as the installed unit says.
    unit = unit_settings(r.run(["cat", "/lib/systemd/system/modalwatchd.service"]).stdout)
    service_user, group = unit["User"], unit["Group"]
    runtime = f"/run/{unit['RuntimeDirectory']}"
    state = f"/var/lib/{unit['StateDirectory']}"
    r.run(["install", "-d", "-m", unit["RuntimeDirectoryMode"], "-o", service_user, "-g", group, runtime])
    r.run(["install", "-d", "-m", "0755", "-o", service_user, "-g", group, state])
    log = open(r.base / "modalwatchd.log", "wb")
    command = r.command(["env", f"STATE_DIRECTORY={state}", f"RUNTIME_DIRECTORY={runtime}", *shlex.split(unit["ExecStart"])],
                        user=service_user, umask=unit["UMask"])
    daemon = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        def answers() -> bool:
            return r.run(["modalwatch", "status", "--control", CONTROL, "--timeout", "500"], user="alice",
                         check=False).returncode == 0
        assert support.poll_until(answers, timeout=20, interval=0.2), (r.base / "modalwatchd.log").read_text()
        listing = r.run(["ls", "-ld", runtime, f"{runtime}/control.sock"]).stdout.splitlines()
        assert listing[0].startswith("drwxr-x---") and f" {service_user} {group} " in listing[0], listing
        assert listing[1].startswith("srw-rw----") and f" {service_user} {group} " in listing[1], listing

        status = json.loads(r.run(["modalwatch", "status", "--control", CONTROL, "--json"], user="alice").stdout)
        assert status["version"] == support.run_cli(["--version"]).stdout.decode().strip()
        assert sorted(m["name"] for m in status["modules"]) == MODULES, status["modules"]

        r.run(["modalwatch", "send", "/tmp/stream.ndjson"], user="alice")
        expected = [json.loads(line) for line in r.run(
            ["modalwatch", "check", "/tmp/stream.ndjson", "--format", "json"], user="alice", check=False).stdout.splitlines()]
        assert expected, "the demo stream breaks rules"

        def stored() -> list[dict]:
            result = r.run(["modalwatch", "violations", "--control", CONTROL, "--json", "--limit", "10000"], user="alice")
            return [json.loads(line) for line in result.stdout.splitlines()]
        assert support.poll_until(lambda: len(stored()) >= len(expected), timeout=20, interval=0.3)
        got = stored()
        assert sorted(v["id"] for v in got) == sorted(v["id"] for v in expected)
        r.run(["modalwatch", "violations", "--control", CONTROL, "--limit", "5"], user="alice")

        # Outside the group: no way to the socket.
        refused = r.run(["modalwatch", "status", "--control", CONTROL], user="bob", check=False)
        assert refused.returncode == 3, refused.stdout + refused.stderr

        # A Swift rule module built out of tree with the same toolchain loads and runs.
        r.run(["install", "-d", "-m", "0755", "/tmp/house"])
        r.run(["cp", f"/tmp/{HOUSE_LIBRARY}", "/tmp/house/"])
        verify = r.run(["modalwatch", "rules", "--verify", "--module", f"/tmp/house/{HOUSE_LIBRARY}"], user="alice")
        assert "ok      house-alert-too-early" in verify.stdout, verify.stdout
        checked = r.run(["modalwatchd", "--check-config", "--config", "/etc/modalwatch/modalwatchd.yaml",
                         "--rules-dir", "/tmp/house"], user=service_user)
        assert "module house" in checked.stdout and "module failed" not in checked.stdout, checked.stdout
    finally:
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=15)
        log.close()
    assert code == 0, (r.base / "modalwatchd.log").read_text()[-3000:]

    # Removal and purge, through the maintainer scripts.
    r.run(["dpkg", "-r", "modalwatch"])
    assert r.run(["test", "-e", "/usr/bin/modalwatchd"], check=False).returncode == 1
    assert r.run(["test", "-e", "/etc/modalwatch/modalwatchd.yaml"]).returncode == 0  # a conffile stays until purge
    r.run(["dpkg", "--purge", "modalwatch"])
    for gone in ("/etc/modalwatch/modalwatchd.yaml", state, "/etc/systemd/system/multi-user.target.wants/modalwatchd.service"):
        assert r.run(["test", "-e", gone], check=False).returncode == 1, gone
    print("\n\n".join(r.transcript))
