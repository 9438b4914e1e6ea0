"""Fixtures for the end-to-end tests: the real daemon, pyzmq sockets, and the rule-module gate."""
from __future__ import annotations

import signal
from pathlib import Path
from typing import Iterator

import pytest
import zmq

import e2e_support as support

_RULES: set[str] = set()
_RULES_NOTE = ""


def pytest_configure(config: pytest.Config) -> None:
    global _RULES, _RULES_NOTE
    config.addinivalue_line(
        "markers", "needs_rules(*ids): fail unless `modalwatch rules --json` lists every rule named")
    missing = [p for p in (support.daemon_path(), support.cli_path()) if not p.is_file()]
    if missing:
        pytest.exit(f"not built: {', '.join(map(str, missing))}; run `swift build` (or set MODALWATCH_BIN_DIR)", returncode=2)
    _RULES, stderr = support.available_rules()
    _RULES_NOTE = stderr.strip().splitlines()[0] if stderr.strip() else ""


def pytest_report_header(config: pytest.Config) -> str:
    listed = ", ".join(sorted(_RULES)) or "none"
    return f"modalwatch binaries: {support.bin_dir()}; rules loaded: {listed}"


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers(name="needs_rules"):
        missing = [rule for rule in marker.args if rule not in _RULES]
        if missing:
            note = f" ({_RULES_NOTE})" if _RULES_NOTE else ""
            # The built-in modules are part of every build: a missing rule is a failure, never a skip.
            pytest.fail(f"needs rule modules with {', '.join(missing)}; `modalwatch rules --json` does not list them{note}")


@pytest.fixture(scope="session")
def zctx() -> Iterator[zmq.Context]:
    context = zmq.Context()
    yield context
    context.destroy(linger=0)


def _finish(daemon: support.Daemon) -> None:
    """Teardown: a daemon the test did not stop must still be alive, and must exit 0 on SIGTERM."""
    if daemon.process is None:
        return
    if daemon.stopped_on_purpose:
        if daemon.process.poll() is None:
            daemon.process.kill()
            daemon.process.wait(timeout=5)
        return
    code = daemon.process.poll()
    if code is not None:
        pytest.fail(f"modalwatchd died during the test (exit {code}):\n{daemon.log()[-4000:]}")
    code = daemon.stop(signal.SIGTERM, timeout=5.0)
    if code != 0:
        pytest.fail(f"modalwatchd exited {code} on SIGTERM, not 0:\n{daemon.log()[-4000:]}")


@pytest.fixture
def daemon(zctx: zmq.Context, tmp_path: Path) -> Iterator[support.Daemon]:
    """A fresh modalwatchd on free loopback ports; SIGTERM at the end must exit 0."""
    instance = support.Daemon(zctx, tmp_path).start()
    yield instance
    _finish(instance)


@pytest.fixture(scope="module")
def shared_daemon(zctx: zmq.Context, tmp_path_factory: pytest.TempPathFactory) -> Iterator[support.Daemon]:
    """One modalwatchd for a whole module of tests that only talk to its control socket."""
    instance = support.Daemon(zctx, tmp_path_factory.mktemp("daemon")).start()
    yield instance
    _finish(instance)


@pytest.fixture
def sender(zctx: zmq.Context, daemon: support.Daemon) -> Iterator[support.EventSender]:
    """A PUB socket connected to the daemon's ingest endpoint, already warmed up."""
    instance = support.EventSender(zctx, daemon.events)
    instance.warm_up(daemon)
    yield instance
    instance.close()


@pytest.fixture
def subscriber(zctx: zmq.Context, daemon: support.Daemon, sender: support.EventSender) -> Iterator[support.Subscriber]:
    """A SUB socket on the daemon's publish endpoint for violation/ and diag/, warmed up through `sender`;
    `status` then counts the warm-up's probes (it may lag a tick behind the diagnostics that came back)."""
    instance = support.Subscriber(zctx, daemon.publish)
    instance.warm_up(sender)
    sender.warm_up(daemon)
    yield instance
    instance.close()
