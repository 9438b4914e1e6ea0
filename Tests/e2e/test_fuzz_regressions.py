"""Regression tests for what the fuzz targets found (Fuzz/README.md, docs/RELIABILITY.md "Findings").

Each input is the minimized one (also in Fuzz/regressions/), given to the real daemon:
- the configuration (findings 1, 2), through `modalwatchd --check-config`: every error is one line,
  `modalwatchd: FILE:LINE: KEY: MESSAGE`, naming the file, the line and the key (ConfigErrors);
- the control protocol (findings 3, 4), through the control socket: `limit` is a whole number N
  (docs/control-protocol.md), read the same way by `sessions` and `violations`.

Each finding is fixed; these tests keep it so.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import e2e_support as support


def check_config(path: Path) -> list[str]:
    """The daemon's stderr lines for a configuration it must refuse (exit 1)."""
    result = subprocess.run([str(support.daemon_path()), "--check-config", "--config", str(path)] + support.rules_dir_args(),
                            capture_output=True, timeout=20)
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    return result.stderr.decode(errors="replace").splitlines()


def error_lines(path: Path, lines: list[str]) -> list[str]:
    """The lines that are configuration errors: every one must start with `modalwatchd: FILE:`."""
    prefix = f"modalwatchd: {path}"
    # Log lines of the module loader (a date, a level) are not configuration errors.
    errors = [line for line in lines if not re.match(r"^\d{4}-\d\d-\d\dT", line)]
    assert errors, lines
    strays = [line for line in errors if not line.startswith(prefix)]
    assert not strays, f"lines that are not 'modalwatchd: {path}:LINE: ...': {strays!r}"
    return errors


def test_yaml_syntax_error_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "tab.yaml"
    config.write_bytes(b"rules:\n\talert-frequency: { limit: 3 }\n")  # a tab cannot indent YAML
    errors = error_lines(config, check_config(config))
    assert len(errors) == 1 and "not valid YAML" in errors[0] and f"{config}:2:" in errors[0], errors


def test_nested_yaml_aliases_are_refused_at_once(tmp_path: Path) -> None:
    """40 nested aliases used as a mapping key (under 1 KB) would make Yams hash 2^40 nodes:
    refused in one line, naming the line of the first alias, before any tree is built."""
    config = tmp_path / "aliases.yaml"
    lines = ["a0: &a0 [x, x]"] + [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]" for i in range(1, 40)] + ["? *a39", ": 1"]
    config.write_text("\n".join(lines) + "\n")
    errors = error_lines(config, check_config(config))
    assert len(errors) == 1 and "alias" in errors[0] and f"{config}:2:" in errors[0], errors


def test_echoed_value_keeps_the_error_on_one_line(tmp_path: Path) -> None:
    config = tmp_path / "block.yaml"
    config.write_bytes(b"log_level: |\n  info\n")  # the value is "info\n"
    errors = error_lines(config, check_config(config))
    assert len(errors) == 1 and "log_level" in errors[0], errors


@pytest.mark.parametrize("text", [b"? [a, b]\n: 1\n", b"\"\": 1\n"], ids=["complex-key", "empty-key"])
def test_error_names_a_key_that_is_not_a_string(tmp_path: Path, text: bytes) -> None:
    config = tmp_path / "key.yaml"
    config.write_bytes(text)
    errors = error_lines(config, check_config(config))
    assert len(errors) == 1, errors
    # FILE:LINE: KEY: MESSAGE — with the key there, the part after the line is not the message itself.
    match = re.match(rf"^modalwatchd: {re.escape(str(config))}:(\d+): (.+?): (.+)$", errors[0])
    assert match and int(match.group(1)) >= 1 and not match.group(2).startswith("unknown key"), errors


# The control protocol (docs/control-protocol.md): what the control target's replies showed.

@pytest.mark.parametrize("limit", [b"9223372036854775808", b"18446744073709551615"])
def test_huge_sessions_limit_is_not_called_negative(shared_daemon, limit: bytes) -> None:
    reply = shared_daemon.request(b'{"cmd":"sessions","limit":' + limit + b"}")
    # Refused for its size, with the range that is accepted, and never called negative.
    assert reply.get("ok") is False and "0 to" in reply["error"], reply
    assert "0 or more" not in reply["error"] and "negative" not in reply["error"], reply


@pytest.mark.parametrize("request_bytes", [
    b'{"cmd":"violations","limit":true}',
    b'{"cmd":"violations","limit":"5"}',
    b'{"cmd":"violations","limit":2.5}',
    b'{"cmd":"violations","since":true}',
], ids=["limit-true", "limit-string", "limit-fraction", "since-true"])
def test_violations_refuses_what_sessions_refuses(shared_daemon, request_bytes: bytes) -> None:
    reply = shared_daemon.request(request_bytes)
    assert reply.get("ok") is False and reply.get("error"), reply
