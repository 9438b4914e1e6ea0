"""A rule module in Swift built outside this package: Examples/swift-module.

The example is its own SwiftPM package that depends on modalwatch by path for
the `RuleKit` and `ModalwatchABI` library products. The test builds it with
`swift build --package-path` (into the example's own, git-ignored `.build`, so
a second run is incremental: seconds; the first, from a fresh clone, about a
minute), checks it with `modalwatch rules --verify --module`, loads it into the
real daemon with --rules-dir, receives its violation on a pyzmq SUB socket, and
finds the same one with `modalwatch check --rules-dir`. Its module settings
(ABI 1.2 on_init) come from the config's `modules:` section.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import e2e_support as support
from test_modules import ROOT, T0

# One pytest-xdist worker runs this file and test_package.py (scripts/test.sh runs --dist loadgroup):
# both build Examples/swift-module, and builds of one package wait on its lock.
pytestmark = pytest.mark.xdist_group("swift-module")

EXAMPLE = ROOT / "Examples" / "swift-module"
LIBRARY = "libmodalwatch-rules-house.so"

STREAM = [
    {"v": 1, "type": "session.start", "session": "H1", "ts": T0, "app": "com.example.house"},
    {"v": 1, "type": "alert.presented", "session": "H1", "ts": T0 + 800, "id": "rate", "title": "Rate This App",
     "buttons": [{"title": "Not Now", "style": "cancel"}, {"title": "Rate"}]},
    {"v": 1, "type": "alert.dismissed", "session": "H1", "ts": T0 + 3000, "id": "rate", "button": 0, "via": "button"},
    {"v": 1, "type": "alert.presented", "session": "H1", "ts": T0 + 9000, "id": "late", "title": "Sync Failed",
     "buttons": [{"title": "OK"}]},
]


@pytest.fixture(scope="module")
def house_rules(tmp_path_factory) -> Path:
    """Builds the example package and returns a rules folder holding its module alone."""
    swift = shutil.which("swift")
    if swift is None:
        pytest.fail("no swift on PATH")
    command = [swift, "build", "--package-path", str(EXAMPLE)]
    build = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if build.returncode != 0:
        # An incremental build can trip over a dependency graph the root package changed since
        # (a target's new dependency): build once more from a clean folder before failing.
        shutil.rmtree(EXAMPLE / ".build", ignore_errors=True)
        build = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    built = EXAMPLE / ".build" / "debug" / LIBRARY
    assert built.exists(), f"{built} was not built"
    rules = tmp_path_factory.mktemp("house-rules")
    shutil.copy2(built, rules / LIBRARY)
    return rules


def test_the_out_of_tree_swift_module_verifies(house_rules):
    result = support.run_cli(["rules", "--verify", "--module", str(house_rules / LIBRARY)])
    out = result.stdout.decode()
    assert result.returncode == 0, out + result.stderr.decode()
    assert out.splitlines()[0].startswith("module house 1.0.0, ABI 1.5, 1 rules"), out
    assert "ok      house-alert-too-early" in out, out


def test_the_out_of_tree_swift_module_runs_in_the_daemon_and_in_check(zctx, tmp_path, house_rules):
    daemon = support.Daemon(zctx, tmp_path, extra_args=["--rules-dir", str(house_rules)]).start()
    try:
        status = daemon.status()
        assert {"name": "house", "abi": "1.5"}.items() <= next(
            (m for m in status["modules"] if m["name"] == "house"), {}).items(), status["modules"]
        sender = support.EventSender(zctx, daemon.events)
        sender.warm_up(daemon)
        subscriber = support.Subscriber(zctx, daemon.publish, prefixes=("violation/com.example.house/house-",))
        subscriber.warm_up(sender)
        sender.events(STREAM)
        got = subscriber.collect(lambda m: len(subscriber.violations(m)) >= 1, timeout=5.0)
        live = [m for m in subscriber.violations(got)]
        assert len(live) == 1, [m.body for m in live]
        support.assert_violation_shape(live[0].topic, live[0].body)
        v = live[0].body
        assert (v["rule"], v["module"], v["subject"], v["severity"]) == ("house-alert-too-early", "house", "rate", "warning")
        assert v["evidence"] == {"since_start_ms": 800, "grace_ms": 2000}, v
        sender.close()
        subscriber.close()
    finally:
        assert daemon.stop() == 0, daemon.log()[-3000:]
    # offline: the same violation
    stream = support.write_stream(tmp_path / "house.ndjson", STREAM)
    code, offline, err = support.check_json(stream, "--rules-dir", str(house_rules), "--fail-on", "error")
    house = [support.without_observed(o) for o in offline if o["module"] == "house"]
    assert house == [support.without_observed(v)], err


def test_the_module_settings_reach_its_state(tmp_path, house_rules):
    stream = support.write_stream(tmp_path / "house.ndjson", STREAM)
    config = tmp_path / "exempt.yaml"
    config.write_text("modules:\n  house: { exempt_apps: 'com.other, com.example.house' }\n")
    code, offline, err = support.check_json(stream, "--rules-dir", str(house_rules), "--config", str(config))
    assert [o for o in offline if o["module"] == "house"] == [], err
    # a setting the module does not know: it refuses to start, and says why
    config.write_text("modules:\n  house: { exempt_app: com.example.house }\n")
    result = support.run_cli(["rules", "--verify", "--module", str(house_rules / LIBRARY), "--config", str(config)])
    out = result.stdout.decode()
    assert result.returncode == 1, out
    assert "failed to initialize: unknown setting 'exempt_app'" in out, out
