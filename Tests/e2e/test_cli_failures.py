"""Clear failures: an unreachable daemon is one line and exit 3 within the timeout (never a hang); a bad flag is
usage and exit 2; the daemon answers malformed control requests of the new commands with an error."""
from __future__ import annotations

import time

import pytest

import e2e_support as support

TIMEOUT_MS = 1000


UNREACHABLE = [
    ["status"], ["status", "--json"], ["sessions"], ["sessions", "--json"], ["session", "S1"], ["session", "S1", "--json"],
    ["top"], ["top", "--json"], ["top", "--once"], ["violations"], ["rules", "--control"],
]


def test_unreachable_daemon_exits_3_within_the_timeout(tmp_path):
    # Every command at once, over TCP (a free port) and ipc:// (no such file): each on its own clock.
    runs = []
    for transport in ("tcp", "ipc"):
        for command in UNREACHABLE:
            target = support.free_tcp_endpoint() if transport == "tcp" else f"ipc://{tmp_path}/nobody-{len(runs)}.sock"
            args = [*command, target] if command[-1] == "--control" else [*command, "--control", target]
            process = support.subprocess.Popen(
                [str(support.cli_path()), *args, "--timeout", str(TIMEOUT_MS)],
                stdout=support.subprocess.PIPE, stderr=support.subprocess.PIPE, env={**support.os.environ, "NO_COLOR": "1"})
            runs.append((" ".join(command) + f" ({transport})", target, process, time.monotonic()))
    finished: dict[int, float] = {}
    deadline = time.monotonic() + 10
    while len(finished) < len(runs) and time.monotonic() < deadline:
        for i, (_, _, process, _) in enumerate(runs):
            if i not in finished and process.poll() is not None:
                finished[i] = time.monotonic()
        time.sleep(0.01)
    failures = []
    for i, (what, target, process, started) in enumerate(runs):
        if i not in finished:
            process.kill()
            process.wait(timeout=5)
            failures.append(f"{what}: still running after 10 s")
            continue
        out, err = process.communicate(timeout=5)
        stderr = err.decode().strip()
        elapsed = finished[i] - started
        if process.returncode != 3:
            failures.append(f"{what}: exit {process.returncode}, not 3: {stderr}")
        if elapsed >= TIMEOUT_MS / 1000 + 2:
            failures.append(f"{what}: took {elapsed:.2f} s")
        if len(stderr.splitlines()) != 1 or target not in stderr or "--control" not in stderr:
            failures.append(f"{what}: not one line naming {target} and --control: {stderr!r}")
        if out:
            failures.append(f"{what}: printed on stdout: {out[:200]!r}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("args", [
    ["sessions", "--bogus"],
    ["sessions", "--sort", "sideways"],
    ["sessions", "--limit", "-1"],
    ["sessions", "--limit", "many"],
    ["session"],
    ["session", "S1", "--events", "-5"],
    ["session", "S1", "S2"],
    ["top", "--interval", "0"],
    ["top", "--bogus"],
    ["tail", "--severity", "loud"],
    ["tail", "--count", "0"],
    ["tail", "--app", "a/b"],
    ["check", "--format", "xml", "x.ndjson"],
    ["check", "--json", "--format", "sarif", "x.ndjson"],
    ["send", "x.ndjson", "--rate", "0"],
    ["rules", "--control"],
    ["violations", "--since", "yesterday"],
    ["status", "--timeout", "0"],
], ids=lambda a: " ".join(a))
def test_bad_usage_prints_usage_and_exits_2(args):
    result = support.run_cli(args, timeout=10)
    stderr = result.stderr.decode()
    assert result.returncode == 2, (result.returncode, stderr)
    assert "Usage:" in stderr or "usage" in stderr.lower(), f"a usage error shows the usage: {stderr}"
    assert result.stdout == b""


def test_help_lists_every_command():
    result = support.run_cli(["--help"])
    assert result.returncode == 0
    text = result.stdout.decode()
    for command in ("status", "sessions", "session", "top", "tail", "violations", "rules", "check", "send"):
        assert f"  {command} " in text or f"  {command}\n" in text, (command, text)


MALFORMED = [
    ("session id not a string", b'{"cmd":"session","id":5}'),
    ("session events negative", b'{"cmd":"session","id":"x","events":-1}'),
    ("session events a fraction", b'{"cmd":"session","id":"x","events":2.5}'),
    ("session unknown id", b'{"cmd":"session","id":"never-seen"}'),
    ("session unknown id, ended too", b'{"cmd":"session","id":"never-seen","ended":true}'),
    ("session ended not a boolean", b'{"cmd":"session","id":"x","ended":1}'),
    ("sessions app not a string", b'{"cmd":"sessions","app":["a"]}'),
    ("sessions sort not a string", b'{"cmd":"sessions","sort":1}'),
    ("sessions limit a fraction", b'{"cmd":"sessions","limit":1.5}'),
    ("sessions limit a boolean", b'{"cmd":"sessions","limit":true}'),
    ("violations session not a string", b'{"cmd":"violations","session":7}'),
    ("violations limit too large", b'{"cmd":"violations","limit":100000}'),
    ("violations limit a string", b'{"cmd":"violations","limit":"5"}'),
]


@pytest.mark.parametrize("request_bytes", [m[1] for m in MALFORMED], ids=[m[0] for m in MALFORMED])
def test_malformed_requests_of_the_inspection_commands_get_an_error(shared_daemon, request_bytes):
    reply = shared_daemon.request(request_bytes)
    assert reply.get("ok") is False and reply.get("v") == 1, reply
    assert isinstance(reply.get("error"), str) and reply["error"], reply
    assert shared_daemon.status()["ok"] is True
