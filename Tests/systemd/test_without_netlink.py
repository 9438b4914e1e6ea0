"""The same boot with a drop-in that takes AF_NETLINK out of RestrictAddressFamilies=: the daemon
binds its tcp:// endpoints, libzmq's getifaddrs() is refused a netlink socket, and the unit fails
and is restarted again and again. This shows that the booted tests see the unit's sandbox (they
would fail with this family list), and what an administrator sees when the family is missing.
"""
from __future__ import annotations

import time
from typing import Iterator

import pytest

import booted
from conftest import NOTES

UNIT = "modalwatchd.service"

DROP_IN = "/etc/systemd/system/modalwatchd.service.d/address-families.conf"
# The empty assignment resets the list, which the unit's own line would otherwise extend.
FAMILIES = "[Service]\nRestrictAddressFamilies=\nRestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n"


@pytest.fixture(scope="module")
def refused(base_root, deb, tmp_path_factory) -> Iterator[booted.Machine]:
    """The root with the package and the drop-in, booted; the unit's first failures seen."""
    workdir = tmp_path_factory.mktemp("without-netlink")
    m = booted.Machine(base_root, workdir)
    try:
        m.install(deb)
        m.write(DROP_IN, FAMILIES)
        m.boot()
        started = time.monotonic()
        booted.poll_until(lambda: int(m.show(UNIT, "NRestarts")["NRestarts"]) >= 2, timeout=30, interval=0.5)
        NOTES.append(f"without AF_NETLINK: NRestarts={m.show(UNIT, 'NRestarts')['NRestarts']} "
                     f"{time.monotonic() - started:.0f} s after the boot")
        yield m
    finally:
        if m.leader is not None:
            (workdir / "journal.txt").write_text(m.run(["journalctl", "-b", "--no-pager"], check=False, record=False).stdout)
        (workdir / "transcript.txt").write_text("\n\n".join(m.transcript) + "\n")
        m.close()


def test_without_af_netlink_the_unit_fails_and_is_restarted_over_and_over(refused):
    shown = refused.show(UNIT, "RestrictAddressFamilies", "NRestarts", "ActiveState")
    assert sorted(shown["RestrictAddressFamilies"].split()) == ["AF_INET", "AF_INET6", "AF_UNIX"], shown
    # (Result= is reset at each new start, so the journal says how each one ended.)
    assert int(shown["NRestarts"]) >= 2 and shown["ActiveState"] != "active", refused.report(UNIT)
    journal = refused.journal(UNIT)
    # Never ready: systemd says "Started" for a Type=notify unit only after READY=1.
    assert "Started modalwatchd.service" not in journal, journal[-3000:]
    assert journal.count("Failed with result") >= 2, journal[-3000:]
    print(refused.report(UNIT)[:3000])


def test_without_af_netlink_the_journal_names_the_refused_family_at_crit(refused):
    crit = refused.journal(UNIT, priority="crit")
    if "AF_NETLINK" not in crit:
        pytest.xfail("no line at priority crit names AF_NETLINK: the daemon does not check its address families at "
                     "start, and libzmq's abort names none")
    assert "AF_NETLINK" in crit
