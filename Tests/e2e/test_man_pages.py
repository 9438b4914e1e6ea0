"""The written man pages (packaging/man, shipped by scripts/package.sh): modalwatchd(8) names every
flag the daemon takes and has the sections an operator looks for; modalwatchd.yaml(5) names every
top-level key the configuration loader knows; groff renders both without a warning."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import e2e_support as support

MAN = Path(__file__).resolve().parents[2] / "packaging" / "man"
DAEMON_PAGE = MAN / "modalwatchd.8"
CONFIG_PAGE = MAN / "modalwatchd.yaml.5"


def daemon(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(support.daemon_path()), *args], capture_output=True, timeout=30)


def text_of(page: Path) -> str:
    """The page as man shows it, without hyphenation or adjustment."""
    rendered = subprocess.run(["groff", "-man", "-Tutf8", "-P-cbou", "-rLL=200n", "-rHY=0", str(page)],
                              capture_output=True, text=True, timeout=30, check=True)
    return rendered.stdout.replace("\u2010", "-").replace("\u2212", "-")


@pytest.mark.parametrize("page", [DAEMON_PAGE, CONFIG_PAGE], ids=lambda p: p.name)
def test_groff_renders_the_page_without_a_warning(page):
    assert shutil.which("groff"), "groff is not installed"
    checked = subprocess.run(["groff", "-man", "-ww", "-z", str(page)], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr


def test_the_daemons_page_names_every_flag_and_has_the_operators_sections():
    shown = text_of(DAEMON_PAGE)
    flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", daemon(["--help"]).stdout.decode()))
    assert flags, "no flag in modalwatchd --help"
    assert [f for f in sorted(flags) if f not in shown] == []
    for section in ("SYNOPSIS", "OPTIONS", "SIGNALS", "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"):
        assert re.search(rf"^{section}$", shown, re.M), section
    for signal in ("SIGTERM", "SIGHUP", "SIGKILL"):
        assert signal in shown


def test_the_configuration_page_names_every_top_level_key(tmp_path):
    (tmp_path / "unknown.yaml").write_text("not_a_key: 1\n")
    checked = daemon(["--check-config", "--config", str(tmp_path / "unknown.yaml")])
    said = checked.stdout.decode() + checked.stderr.decode()
    listed = re.search(r"known keys are ([a-z_, ]+)", said)
    assert listed, said
    keys = [k.strip() for k in listed.group(1).split(",")]
    shown = text_of(CONFIG_PAGE)
    assert [k for k in keys if not re.search(rf"^\s+{k}(\s|$)", shown, re.M)] == [], "keys without their entry"
